#!/usr/bin/env bash
# Runs the hand-written floor (../shared/bench/swift-baseline) and flow-bench in the same minute,
# each workload in its own process (peak RSS per workload), then prints the ratio table.
#   Scripts/bench.sh [W1 W2 ...] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-.build/bench}
mkdir -p "$out"
workloads=()
flags=()
for argument in "$@"; do
  case "$argument" in --*) flags+=("$argument") ;; *) workloads+=("$argument") ;; esac
done
[ ${#workloads[@]} -gt 0 ] || workloads=(W1 W2 W3 W4 W5 W6 W7)

(cd ../shared/bench/swift-baseline && swift build -c release >&2)
swift build -c release --product flow-bench >&2
floor=../shared/bench/swift-baseline/.build/release/SwiftBaseline
bench="$(swift build -c release --show-bin-path)/flow-bench"
: > "$out/floor.jsonl"
: > "$out/flowruntime.jsonl"
for w in "${workloads[@]}"; do
  case "$w" in W1|W2|W3|W4|W5) "$floor" "$w" >> "$out/floor.jsonl" ;; esac
  "$bench" "$w" ${flags[@]+"${flags[@]}"} >> "$out/flowruntime.jsonl"
done
"$bench" --compare "$out/floor.jsonl" "$out/flowruntime.jsonl"
