#!/usr/bin/env bash
# Fails when a production target carries test plumbing. Run after `swift build --build-tests` (CI runs it right
# after its build). Two checks:
#
# 1. What tests read (Scripts/check-no-test-hooks.py): every declaration of Ripple, RippleTesting, Calculator,
#    CalculatorTerminal and InternalRippleUtilities that Tests/ reference and no production source does, found in
#    the compiler's index store — public API of the library products excepted, genuine non-hooks listed with a
#    reason in Scripts/test-hooks-allowlist.txt. Its header states the rule and its limits.
# 2. Markers the index cannot see: SPI, task-locals and debug-only code in production sources, and `@testable`
#    imports there. Tests reach internals through `@testable import`, and time through RippleTesting, whose
#    lockstep uses the concurrency runtime's own hooks, not Ripple's.
#
#   Scripts/check-no-test-hooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
python3 Scripts/check-no-test-hooks.py || status=1

production=(Sources/Ripple Sources/RippleTesting Sources/InternalRippleUtilities Sources/Calculator
  Sources/CalculatorTerminal Sources/calc Sources/ripple-bench)
pattern='@_spi|@TaskLocal|#if DEBUG|@testable'
if grep -rnE "$pattern" --include='*.swift' "${production[@]}"; then
  echo "error: test plumbing in a production target (matches of '$pattern' above)" >&2
  status=1
fi
exit $status
