#!/usr/bin/env bash
# Profiles ripple-bench rows with perf: where their cycles go, by library and by symbol. Linux only (on macOS,
# Instruments' Time Profiler on `ripple-bench --filter <row> --no-baselines` shows the same).
#
#   Scripts/profile.sh <filter> [runs]     # e.g. Scripts/profile.sh combineLatest2.sum
#
# <filter> selects rows as ripple-bench's --filter does (a substring: `merge2` also runs `merge2.channel`);
# baselines are skipped, so only the selected rows are sampled. Ripple's code is inlined into the bench binary,
# so its share is the `ripple-bench` line of the first table; the rest is the toolchain's runtime and the kernel.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=${1:?usage: Scripts/profile.sh <filter> [runs]}
runs=${2:-3}
command -v perf >/dev/null 2>&1 || {
  echo "error: perf not found; on Debian: apt-get install linux-perf" >&2
  exit 1
}

swift build -c release --product ripple-bench
mkdir -p .build/perf
data=".build/perf/${filter//[^A-Za-z0-9._-]/_}.data"
perf record --quiet -g -o "$data" .build/release/ripple-bench --filter "$filter" --no-baselines --runs "$runs"

echo
echo "== cycles by library"
perf report -i "$data" --no-children --sort dso -g none --stdio 2>/dev/null | grep '%' | head -8
echo
echo "== cycles by symbol"
perf report -i "$data" --no-children --sort dso,symbol -g none --stdio 2>/dev/null | grep '%' | head -20 | cut -c1-160
