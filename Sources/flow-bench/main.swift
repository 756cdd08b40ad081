// flow-bench: the workloads of `Documentation/Performance.md` (W1–W5) plus W6 (connect with the
// incremental cycle check) and W7 (load a 100k-node document), as JSON lines in the format of
// the hand-written floor, W8 (live: `lines` → `toNumber` → `accumulate`, one pass per emission;
// run it on its own, it reports peak RSS), and W9 (a flights-sized CSV pipeline; run it on its own, `flow-bench W9`,
// since it reports peak RSS), WExpr (`expression` against `add`) and WRows (row formulas over
// 336,776 rows against a loop), W10 (a 1,000,000-node document: `flow run`, store + engine, updates;
// run it on its own, it reports peak RSS per phase). `Scripts/bench.sh` runs the floor beside it and prints the ratios.
//
//   swift run -c release flow-bench [W1 ...] [--quick]
//   swift run -c release flow-bench W9 --csv-off inPlace,strings,index,dictionaries   (or all)
//   swift run -c release flow-bench W9 --csv flights.csv          (only writes the flights file)
//   swift run -c release flow-bench W9 --read-loop 30 [--read-floor]   (only reads it, 30 times)
//   swift run -c release flow-bench W10 --phases run,steps,engine,updates
//   swift run -c release flow-bench W13 --sf 1 [--dir DIR [--generate]]   (see W13TPCH.swift)
//   swift run -c release flow-bench W9 W13 --threads 4              (as flow run --threads 4)
//   swift run -c release flow-bench --compare floor.jsonl flowruntime.jsonl
//   swift run -c release flow-bench fuzz decoder|formula|csv|parquet|zstd --runs 20000 --seed 1   (see Fuzz/Fuzz.swift)
//   swift run -c release flow-bench codec zstd compress IN OUT   (see CodecCommand.swift)

if CommandLine.arguments.dropFirst().first == "fuzz" { Fuzz.main(Array(CommandLine.arguments.dropFirst(2))) }
if CommandLine.arguments.dropFirst().first == "codec" { CodecCommand.main(Array(CommandLine.arguments.dropFirst(2))) }

if let files = benchSettings.compare {
  Compare.run(floor: files.floor, ours: files.ours)
} else {
  for workload in benchSettings.workloads {
    switch workload {
    case "W1": try await W1Chain.run()
    case "W2": try await W2Fan.run()
    case "W3": try await W3RandomDAG.run()
    case "W3B": try await W3bEndToEnd.run()
    case "W4": try await W4Heavy.run()
    case "W5": try await W5Cutoff.run()
    case "W6": try await W6Connect.run()
    case "W7": try await W7Load.run()
    case "W8": try await W8Live.run()
    case "W9": try await W9Pipeline.run()
    case "W10": try await W10Scale.run()
    case "W11": try await W11Linearity.run()
    case "W12": try await W12Render.run()
    case "W13": try await W13TPCH.run()
    case "W14": try await W14Subgraphs.run()
    case "W15": try W15Lazy.run()
    case "WEXPR": try await WExpr.run()
    case "WROWS": try await WRows.run()
    case "WEXPORT": try await WExport.run()
    case "WBUDGET": try await WBudget.run()
    default:
      print(
        "flow-bench: unknown workload \(workload) (W1…W15, W3B, WExpr, WRows, WExport, --quick, --compare FLOOR OURS)")
    }
  }
}
