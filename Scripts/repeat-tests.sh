#!/usr/bin/env bash
# Runs `swift test --filter <regex>` N times in a row (default 200) while a busy loop keeps another core
# loaded, and prints "N passed, M failed". Shows that timing tests do not depend on scheduling luck.
#
#   Scripts/repeat-tests.sh 'DebounceTests|ThrottleTests|MarbleDiagramTests|TestClockTests' 200
#   Scripts/repeat-tests.sh --release 'LatestStressTests' 20    # the same, optimised (races hide in one or the other)
#
# The tests are built once (a build that fails stops the script, so no run reuses an older binary); each run then
# uses --skip-build. --release builds them optimised, with -enable-testing, which the test targets' @testable imports
# need. The first run's test count is printed, so that a filter matching fewer tests than meant shows. A run that
# fails, or takes longer than RUN_TIMEOUT seconds (default 120), counts as failed; its log is kept and its path
# printed. A filter that matches no test is an error (exit 2).
set -euo pipefail

configuration=(-c debug)
if [[ ${1:-} == --release ]]; then
  configuration=(-c release -Xswiftc -enable-testing)
  shift
fi
if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  echo "usage: $0 [--release] <filter-regex> [runs=200]" >&2
  exit 2
fi
filter=$1
runs=${2:-200}
timeout_seconds=${RUN_TIMEOUT:-120}

cd "$(dirname "$0")/.."
swift build "${configuration[@]}" --build-tests >/dev/null

logs=$(mktemp -d "${TMPDIR:-/tmp}/repeat-tests.XXXXXX")
yes >/dev/null &
load=$!
trap 'kill "$load" 2>/dev/null || true' EXIT INT TERM

passed=0
failed=0
for ((run = 1; run <= runs; run++)); do
  log="$logs/run-$run.log"
  # A session of its own per run: SwiftPM starts the test binary in a process group of its own, which
  # `timeout` does not reach, so the leftovers of a hung run are killed by session id.
  setsid timeout "$timeout_seconds" swift test "${configuration[@]}" --skip-build --filter "$filter" >"$log" 2>&1 &
  session=$!
  if wait "$session"; then
    # A filter that matches nothing "passes" every run: that is a mistake in the filter, not a result.
    if grep -q "Test run with 0 tests" "$log"; then
      echo "$0: the filter '$filter' matches no test" >&2
      exit 2
    fi
    if ((run == 1)); then
      grep -o "Test run with [0-9]* tests* in [0-9]* suites*" "$log" | sed "s/^/first run: /" || true
    fi
    passed=$((passed + 1))
    rm -f "$log"
  else
    failed=$((failed + 1))
    pkill -KILL -s "$session" 2>/dev/null || true
    echo "run $run failed: $log" >&2
  fi
done

[[ $failed -eq 0 ]] && rm -rf "$logs"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
