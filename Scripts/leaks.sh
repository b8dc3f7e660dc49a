#!/usr/bin/env bash
# Runs calc in script mode with every engine under LeakSanitizer and prints the bytes leaked by each run.
#
#   Scripts/leaks.sh
#
# calc is built with AddressSanitizer (which includes LeakSanitizer on Linux) into .build/asan. Each engine plays
# `a 1`, `b 2`, `wait 2s` on the virtual clock, then a short script on the real clock with a 10 ms calculator.
# LeakSanitizer checks at exit: a block no pointer reaches is reported as a direct leak ("definitely lost" in
# valgrind's words). The script fails if any run leaks; the full report of each run is kept in .build/asan/leaks/.
#
# Why not valgrind: valgrind 3.19 (Debian 12's) crashes with an internal SIGSEGV on any Swift program whose
# async main suspends and is resumed from another thread — `@main enum App { static func main() async {
# _ = await Task.detached { 42 }.value } }` is enough — so it cannot run calc's script mode.
set -euo pipefail

cd "$(dirname "$0")/.."
swift build --product calc --sanitize=address --scratch-path .build/asan -Xswiftc -use-ld=lld >/dev/null
calc=.build/asan/debug/calc
logs=.build/asan/leaks
mkdir -p "$logs"

failed=0
run() {
  local name=$1 script=$2
  shift 2
  local log="$logs/$name.log"
  local status=0
  printf '%b' "$script" | ASAN_OPTIONS=detect_leaks=1 "$calc" "$@" >"$log.out" 2>"$log" || status=$?
  local leaked
  leaked=$(sed -n 's/^SUMMARY: AddressSanitizer: \([0-9]*\) byte(s) leaked.*/\1/p' "$log")
  printf '%-18s %s bytes leaked, exit status %s, output: %s\n' "$name" "${leaked:-0}" "$status" \
    "$(tr '\n' ' ' <"$log.out")"
  if [[ -n $leaked || $status -ne 0 ]]; then
    failed=1
    grep -E '^(Direct|Indirect) leak|^    #[0-9] ' "$log" | head -20
  fi
}

for engine in pipeline debounce task shared all; do
  run "$engine-virtual" 'a 1\nb 2\nwait 2s\n' --clock virtual --engine "$engine"
  timing=(--delay 10ms)
  [[ $engine == debounce ]] && timing+=(--debounce 10ms)  # --debounce applies to the debounce engine only
  run "$engine-real" 'a 1\nb 2\n' --engine "$engine" "${timing[@]}"
done

if [[ $failed -ne 0 ]]; then
  echo "leaks found; full reports in $logs" >&2
  exit 1
fi
echo "no leaks"
