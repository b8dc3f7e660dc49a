#!/usr/bin/env bash
# Fails when a production target carries test plumbing: SPI, task-locals, "for testing" members, test-only
# callbacks or counters, or debug-only code. Tests reach what they need through RippleTesting (whose lockstep uses
# the concurrency runtime's own hooks, not Ripple's) or through `@testable import`.
#
#   Scripts/check-no-test-hooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."

production=(Sources/Ripple Sources/InternalRippleUtilities Sources/Calculator Sources/CalculatorTerminal Sources/calc Sources/ripple-bench)
pattern='@_spi|@TaskLocal|[Ff]orTesting|onOutcome|ActivityCounter|#if DEBUG|@testable'
if grep -rnE "$pattern" --include='*.swift' "${production[@]}"; then
  echo "error: test plumbing in a production target (matches of '$pattern' above)" >&2
  exit 1
fi
echo "no test hooks in ${production[*]}"
