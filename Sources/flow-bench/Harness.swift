import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timing, peak memory and JSON lines in the format of the hand-written floor (`Documentation/Performance.md`, "Reproducing"), so
/// the two join on `workload` + `metric`.
struct Stat {
  var median: Double
  var min: Double
  var max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    min = sorted.first ?? 0
    max = sorted.last ?? 0
  }
}

enum Harness {
  /// Timed runs per measurement (`--quick` lowers it).
  static var reps: Int { benchSettings.quick ? 3 : 5 }

  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// One warm-up run, then `reps` timed runs of `inner` operations; per-operation nanoseconds.
  static func measure(inner: Int = 1, _ body: (Int) throws -> Void) rethrows -> Stat {
    var samples: [Double] = []
    var iteration = 0
    for run in 0..<(reps + 1) {
      let start = now()
      for _ in 0..<inner {
        try body(iteration)
        iteration += 1
      }
      if run > 0 { samples.append(Double(now() - start) / Double(inner)) }
    }
    return Stat(samples)
  }

  static func measure(inner: Int = 1, _ body: (Int) async throws -> Void) async rethrows -> Stat {
    var samples: [Double] = []
    var iteration = 0
    for run in 0..<(reps + 1) {
      let start = now()
      for _ in 0..<inner {
        try await body(iteration)
        iteration += 1
      }
      if run > 0 { samples.append(Double(now() - start) / Double(inner)) }
    }
    return Stat(samples)
  }

  static func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
  }

  static func format(_ value: Double, _ digits: Int = 4) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return "\((value * scale).rounded() / scale)"
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }

  /// Prints one JSON line with the floor's fields (`peer` is `FlowRuntime`).
  static func emit(
    workload: String, metric: String, _ stat: Stat, nodes: Int?, variant: String = "", inner: Int = 1,
    note: String = "", extra: [String: String] = [:]
  ) {
    var fields = [
      "\"peer\": \"FlowRuntime\"", "\"variant\": \"\(escape(variant))\"", "\"workload\": \"\(workload)\"",
      "\"metric\": \"\(escape(metric))\"", "\"median_ms\": \(format(stat.median / 1e6, 6))",
      "\"min_ms\": \(format(stat.min / 1e6, 6))", "\"max_ms\": \(format(stat.max / 1e6, 6))",
      "\"runs\": \(reps)", "\"inner\": \(inner)"
    ]
    if let nodes, nodes > 0 {
      fields.append("\"nodes\": \(nodes)")
      fields.append("\"ns_per_node\": \(format(stat.median / Double(nodes), 2))")
    } else {
      fields += ["\"nodes\": null", "\"ns_per_node\": null"]
    }
    fields.append("\"peak_rss_mb\": \(format(peakRSSMegabytes(), 1))")
    fields.append("\"note\": \"\(escape(note))\"")
    for (key, value) in extra.sorted(by: { $0.key < $1.key }) { fields.append("\"\(key)\": \(value)") }
    let line = "{" + fields.joined(separator: ", ") + "}"
    print(line)
  }

  /// Stops the benchmark if a checksum or count is wrong: a fast wrong answer is no result.
  static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
      FileHandle.standardError.write(Data("CHECK FAILED: \(message())\n".utf8))
      exit(2)
    }
  }
}
