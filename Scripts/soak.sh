#!/usr/bin/env bash
# Plays a long random script (default 1,000,000 events) through each engine in virtual time and prints what
# each engine showed: outcomes, stale results, checkpoints with the right sum, and resident-memory growth.
#
#   Scripts/soak.sh [events=1000000] [seed]
#
# It is the Soak suite of CalculatorTests (Tests/CalculatorTests/SoakTests.swift) in a release build, run on its
# own so that the memory it measures is its own. With 100,000 events or more the suite also requires resident
# memory to grow by less than 1 MiB after the first tenth of the script. The full log is kept in
# .build/soak.log.
set -euo pipefail

events=${1:-1000000}
seed=${2:-}
cd "$(dirname "$0")/.."

export RIPPLE_SOAK_EVENTS=$events
[[ -n $seed ]] && export RIPPLE_SOAK_SEED=$seed
log=.build/soak.log
mkdir -p .build
status=0
swift test -c release --filter 'SoakTests' >"$log" 2>&1 || status=$?
grep -E '^soak |✘|Test run with' "$log" || true
if [[ $status -ne 0 ]]; then
  echo "the soak failed (exit status $status); see $log" >&2
  exit 1
fi
