#!/usr/bin/env bash
# Builds the libFuzzer targets under Fuzz/ and runs them.
#
#   Scripts/fuzz.sh [target...] [--runs N | --seconds S] [--timeout S] [--build-only] [--jobs N]
#
# Targets (all when none is named): query, corpus-lines, event-lines, cursors, index-files,
# arguments, analytics-file. Each runs until it has done N inputs (--runs, default 1000000)
# or for S seconds (--seconds), one after the other, never two at once. A target stops at
# its first finding (a trap, an untyped error, a broken invariant, one input running longer
# than --timeout, 10 s by default, more than 2 GB of memory) and the script exits non-zero
# after it; the input that did it is saved under $DISCOVER_FUZZ_BUILD/artifacts/<target>/
# for the regression tests (Tests/DiscoverSearchTests/Fuzz). Replay one input:
# <build>/fuzzers/<target> FILE.
#
# How it builds: SwiftPM builds the library modules (DiscoverSearch, DiscoverCLI and their C
# shims) in their own build directory, $DISCOVER_FUZZ_BUILD (default .build/fuzz), with
# libFuzzer's coverage instrumentation, AddressSanitizer and -enable-testing (the targets
# `@testable import` them to reach the line readers and cursor layouts). Only library
# targets are built, so no executable links against libFuzzer's main. Then swiftc compiles
# each Fuzz/<Target>/main.swift with Fuzz/Support and links it with those objects and
# -sanitize=fuzzer,address. Package.swift is not involved: `swift build` and `swift test`
# never see the fuzz targets. What each target does with its input is in
# Tests/DiscoverSearchTests/Fuzz/FuzzTargets*.swift, compiled into the fuzzers here and into
# the test target by SwiftPM, so that the regression tests run saved inputs through the very
# same code.
#
# New inputs that libFuzzer finds go to <build>/corpus/<target>; the committed seeds in
# Fuzz/Corpus/<target> are read, never written.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(query corpus-lines event-lines cursors index-files arguments analytics-file)
targets=()
runs=""
seconds=""
timeout=10
build_only=0
jobs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --runs=*) runs="${1#--runs=}"; shift ;;
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --seconds=*) seconds="${1#--seconds=}"; shift ;;
    --timeout) timeout="${2:?--timeout needs a number of seconds}"; shift 2 ;;
    --timeout=*) timeout="${1#--timeout=}"; shift ;;
    --build-only) build_only=1; shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *)
      if [[ " ${all_targets[*]} " != *" $1 "* ]]; then
        echo "fuzz.sh: unknown target $1; targets: ${all_targets[*]}" >&2
        exit 2
      fi
      targets+=("$1"); shift ;;
  esac
done
if [ -n "$runs" ] && [ -n "$seconds" ]; then
  echo "fuzz.sh: give --runs or --seconds, not both" >&2
  exit 2
fi
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
[ -n "$runs" ] || [ -n "$seconds" ] || runs=1000000

build="${DISCOVER_FUZZ_BUILD:-.build/fuzz}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
release="$build/release"

# The directory of a target's sources: query -> Fuzz/Query, corpus-lines -> Fuzz/CorpusLines.
source_dir() {
  local camel=""
  local IFS=-
  for word in $1; do camel+="$(tr '[:lower:]' '[:upper:]' <<<"${word:0:1}")${word:1}"; done
  echo "Fuzz/$camel"
}

echo "== building the library with coverage instrumentation and ASan in $build"
swift build -c release --build-path "$build" --target DiscoverCLI ${jobs:+--jobs "$jobs"} \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing

objects=()
module_maps=()
for module in CCRC32C CICU CPrefetch CSQLite CSanitizer DiscoverSearch DiscoverCLI; do
  while IFS= read -r object; do objects+=("$object"); done \
    < <(find "$release/$module.build" -name '*.o' | sort)
  if [ -f "$release/$module.build/module.modulemap" ]; then
    module_maps+=(-Xcc "-fmodule-map-file=$release/$module.build/module.modulemap")
  fi
done

# The entry points and samples are shared with the regression tests, which feed them the
# inputs that once failed; the test suites themselves (and Swift Testing) stay out.
shared=()
for file in Tests/DiscoverSearchTests/Fuzz/*.swift; do
  [[ "$file" == *Tests.swift ]] || shared+=("$file")
done

mkdir -p "$build/fuzzers"
for target in "${targets[@]}"; do
  echo "== linking $target"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -use-ld=lld \
    -module-cache-path "$build/ModuleCache" -I "$release/Modules" "${module_maps[@]}" \
    "${shared[@]}" Fuzz/Support/*.swift "$(source_dir "$target")"/*.swift "${objects[@]}" \
    -licuuc -licui18n -lsqlite3 -o "$build/fuzzers/$target"
done
[ "$build_only" -eq 0 ] || exit 0

# Swift's runtime keeps metadata caches for the process's life, which LeakSanitizer would
# report after every run; memory growth is caught by the RSS and malloc limits instead.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
summary=()
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  limit=(-runs="$runs")
  [ -z "$seconds" ] || limit=(-max_total_time="$seconds")
  echo "== fuzzing $target (${runs:+$runs runs}${seconds:+$seconds seconds})"
  log="$build/$target.log"
  started=$(date +%s)
  if "$build/fuzzers/$target" "${limit[@]}" -timeout="$timeout" -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "Fuzz/Corpus/$target" 2>&1 | tee "$log" \
    | grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|stat::|SUMMARY|Fatal error|.*fuzz rule broken|Test unit written)' \
    ; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    elapsed=$(($(date +%s) - started))
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    per_second=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    summary+=("$target: ${executed:-?} runs in ${elapsed} s, ${per_second:-?} exec/s, no findings")
  else
    summary+=("$target: FAILED, see $log and $artifacts")
    status=1
  fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$status"
