#!/usr/bin/env bash
# Builds a libFuzzer target and runs it for a given time, then prints how many inputs it ran.
#
#   Scripts/fuzz.sh <keys|options|script|all> <seconds> [libFuzzer flags…]
#
# Targets (sources in Fuzz/): keys → KeyDecoder, options → CalcOptions.parse and DurationText, script → the
# script line parser ScriptCommand.parse. Each is compiled with swiftc (-sanitize=fuzzer,address) together with
# the CalculatorTerminal sources into one module, so it reaches internal types; the package's build never sees
# Fuzz/. InternalRippleUtilities, Ripple, RippleTesting and Calculator are built once as static libraries with
# AddressSanitizer.
#
# Everything lands in .fuzz/ (git-ignored): .fuzz/<target>/corpus grows from Fuzz/Seeds/<target> across runs,
# and a crashing input is saved as .fuzz/<target>/crash-* — the script then fails and prints the input to
# replay with `.fuzz/build/<target> <file>`. Fix the crash and add the input as a regression test.
set -euo pipefail

if [[ $# -lt 2 || $1 == -h || $1 == --help ]]; then
  echo "usage: $0 <keys|options|script|all> <seconds> [libFuzzer flags...]" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2

cd "$(dirname "$0")/.."
root=$PWD
build=.fuzz/build
mkdir -p "$build/modulemaps/_RippleTSan"

if [[ $target == all ]]; then
  for each in keys options script; do "$0" "$each" "$seconds" "$@"; done
  exit 0
fi

case $target in
  keys) source_file=Fuzz/KeyDecoderFuzz.swift ;;
  options) source_file=Fuzz/CalcOptionsFuzz.swift ;;
  script) source_file=Fuzz/ScriptCommandFuzz.swift ;;
  *)
    echo "unknown target '$target'; use keys, options, script or all" >&2
    exit 2
    ;;
esac

swift_flags=(-swift-version 6 -O -g -parse-as-library -use-ld=lld -package-name Ripple
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -I "$build" -I "$build/modulemaps/_RippleTSan")

# The C module InternalRippleUtilities imports, with a module map pointing at its header.
cat >"$build/modulemaps/_RippleTSan/module.modulemap" <<EOF
module _RippleTSan {
  header "$root/Sources/_RippleTSan/include/_RippleTSan.h"
  export *
}
EOF

# A static library of `module` from its sources, rebuilt when a source is newer than it.
library() {
  local module=$1
  local sources
  sources=$(find "Sources/$module" -name '*.swift' | sort)
  if [[ -f $build/lib$module.a ]] && [[ -z $(find "Sources/$module" -name '*.swift' -newer "$build/lib$module.a") ]]; then
    return
  fi
  echo "==> building $module"
  # shellcheck disable=SC2086
  swiftc "${swift_flags[@]}" -sanitize=address -module-name "$module" -emit-library -static \
    -emit-module -emit-module-path "$build/$module.swiftmodule" -o "$build/lib$module.a" $sources
}
library InternalRippleUtilities
library Ripple
library RippleTesting
library Calculator

echo "==> building the $target fuzzer"
# shellcheck disable=SC2046
swiftc "${swift_flags[@]}" -sanitize=fuzzer,address -module-name CalculatorTerminal \
  -o "$build/$target" "$source_file" $(find Sources/CalculatorTerminal -name '*.swift' | sort) \
  -L "$build" -lCalculator -lRippleTesting -lRipple -lInternalRippleUtilities

work=.fuzz/$target
mkdir -p "$work/corpus"
dictionary=()
[[ -f Fuzz/$target.dict ]] && dictionary=(-dict="Fuzz/$target.dict")

echo "==> fuzzing $target for ${seconds}s"
log="$work/last-run.log"
status=0
"$build/$target" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$work/" \
  "${dictionary[@]}" "$@" "$work/corpus" "Fuzz/Seeds/$target" 2>&1 | tee "$log" | grep -E '^#[0-9]+ +(INITED|DONE|pulse)|^Done|ERROR|SUMMARY|Test unit written' || true
status=${PIPESTATUS[0]}
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
echo "==> $target: ${runs:-0} executions, exit status $status (log: $log)"
if [[ $status -ne 0 ]]; then
  echo "a crash: replay it with $build/$target $(ls -t "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null | head -1)" >&2
  exit 1
fi
