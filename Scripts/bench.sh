#!/usr/bin/env bash
# Runs flow-bench, each workload in its own process (peak RSS per workload), and the hand-written
# floor (a plain Swift program doing the same work) in the same minute when it is there, then
# prints the ratio table (Documentation/Performance.md).
#   Scripts/bench.sh [W1 W2 ...] [--quick]
# The floor is looked for in $BENCH_FLOOR (default ../shared/bench/swift-baseline, beside the
# clone); without it the table has FlowRuntime's figures alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-.build/bench}
floor_dir=${BENCH_FLOOR:-../shared/bench/swift-baseline}
mkdir -p "$out"
workloads=()
flags=()
for argument in "$@"; do
  case "$argument" in --*) flags+=("$argument") ;; *) workloads+=("$argument") ;; esac
done
[ ${#workloads[@]} -gt 0 ] || workloads=(W1 W2 W3 W4 W5 W6 W7)

floor=""
if [ -f "$floor_dir/Package.swift" ]; then
  # Built under .build/ here, so a read-only floor folder works and stays untouched.
  swift build -c release --package-path "$floor_dir" --scratch-path "$out/floor-build" >&2
  floor="$(swift build -c release --package-path "$floor_dir" --scratch-path "$out/floor-build" --show-bin-path)/SwiftBaseline"
else
  echo "bench.sh: no floor at $floor_dir (set BENCH_FLOOR to its folder); W1–W5 run without ratios" >&2
fi
swift build -c release --product flow-bench >&2
bench="$(swift build -c release --show-bin-path)/flow-bench"
: > "$out/floor.jsonl"
: > "$out/flowruntime.jsonl"
for w in "${workloads[@]}"; do
  if [ -n "$floor" ]; then
    case "$w" in W1|W2|W3|W4|W5) "$floor" "$w" >> "$out/floor.jsonl" ;; esac
  fi
  "$bench" "$w" ${flags[@]+"${flags[@]}"} >> "$out/flowruntime.jsonl"
done
"$bench" --compare "$out/floor.jsonl" "$out/flowruntime.jsonl"
