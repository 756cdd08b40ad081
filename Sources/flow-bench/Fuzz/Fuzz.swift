import Foundation
import FlowTestSupport

/// `flow-bench fuzz decoder|formula|csv|parquet|zstd [--runs N] [--seed S] [--corpus DIR] [--save-last FILE]`: a
/// seeded mutation campaign over a committed corpus (`Tests/FuzzCorpus/<target>/`).
///
/// Deterministic: the same seed, runs and corpus replay the same inputs, so a crash found in CI
/// reproduces locally (`--save-last FILE` writes each input before running it, so the file holds
/// the one that crashed). A trap cannot be caught in process: it ends the campaign with a
/// signal, which fails CI. Every corpus entry runs once unmutated first.
enum Fuzz {
  static func main(_ arguments: [String]) -> Never {
    var runs = 10_000
    var seed: UInt64 = 1
    var corpusFolder: String?
    var saveLast: String?
    guard let target = arguments.first, ["decoder", "formula", "csv", "parquet", "zstd"].contains(target) else {
      usage()
    }
    var index = 1
    while index < arguments.count {
      let value = index + 1 < arguments.count ? arguments[index + 1] : nil
      switch (arguments[index], value) {
      case ("--runs", let value?): runs = Int(value) ?? -1
      case ("--seed", let value?): seed = UInt64(value) ?? 0
      case ("--corpus", let value?): corpusFolder = value
      case ("--save-last", let value?): saveLast = value
      default: usage()
      }
      guard runs >= 0 else { usage() }
      index += 2
    }
    let folder = corpusFolder ?? "Tests/FuzzCorpus/\(target)"
    let corpus = loadCorpus(folder)
    guard !corpus.isEmpty else {
      FileHandle.standardError.write(Data("flow-bench fuzz: no corpus files in \(folder)\n".utf8))
      exit(2)
    }
    let body: ([UInt8]) -> FuzzTargets.Outcome =
      switch target {
      case "decoder": FuzzTargets.decoder
      case "formula": FuzzTargets.formula
      case "parquet": FuzzTargets.parquet
      case "zstd": FuzzTargets.zstd
      default: FuzzTargets.csv
      }
    var mutator = Mutator(random: SeededRandom(seed: seed))
    // The csv target takes half its mutations from `CSVMutator` (shape-keeping), which draws
    // from a generator of its own: the other targets' campaigns are what they were.
    var csvMutator = target == "csv" ? CSVMutator(random: SeededRandom(seed: seed ^ 0x00C5_F000)) : nil
    var accepted = 0
    let start = Harness.now()
    for run in 0..<(corpus.count + runs) {
      var input = run < corpus.count ? corpus[run] : corpus[Int.random(in: 0..<corpus.count, using: &mutator.random)]
      if run >= corpus.count {
        if csvMutator != nil, Bool.random(using: &csvMutator!.random) {
          input = csvMutator!.mutate(input, limit: FuzzTargets.csvInputLimit)
        } else {
          input = mutator.mutate(input, corpus: corpus)
        }
      }
      if let saveLast { try? Data(input).write(to: URL(fileURLWithPath: saveLast)) }
      if body(input) == .accepted { accepted += 1 }
    }
    let seconds = Double(Harness.now() - start) / 1e9
    print(
      "{\"fuzz\": \"\(target)\", \"seed\": \(seed), \"corpus\": \(corpus.count), \"runs\": \(corpus.count + runs), "
        + "\"accepted\": \(accepted), \"seconds\": \(Harness.format(seconds, 2)), \"crashes\": 0"
        + (target == "csv" ? ", \"compared_in_parallel\": \(FuzzTargets.csvCompared.load(ordering: .relaxed))}" : "}"))
    exit(0)
  }

  /// Every file of `folder`, sorted by name.
  static func loadCorpus(_ folder: String) -> [[UInt8]] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    return names.compactMap { FileManager.default.contents(atPath: "\(folder)/\($0)").map { Array($0) } }
  }

  static func usage() -> Never {
    FileHandle.standardError.write(
      Data(
        "usage: flow-bench fuzz decoder|formula|csv|parquet|zstd [--runs N] [--seed S] [--corpus DIR] [--save-last FILE]\n"
          .utf8))
    exit(64)
  }
}
