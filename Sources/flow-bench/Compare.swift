import Foundation
import FlowRuntime

/// `flow-bench --compare FLOOR.jsonl OURS.jsonl`: joins the rows on workload + metric and
/// prints a Markdown table of ratios against the fastest floor variant measured in the same run.
enum Compare {
  struct Row {
    var workload: String
    var metric: String
    var variant: String
    var median: Double
    var nodes: Double?
    var fields: JSONObject
  }

  static func rows(_ path: String) -> [Row] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      FileHandle.standardError.write(Data("flow-bench: cannot read \(path)\n".utf8))
      exit(64)
    }
    return text.split(separator: "\n").compactMap { line in
      guard let object = (try? JSONValue.parse(String(line)))?.objectValue,
        let workload = object["workload"]?.stringValue, let metric = object["metric"]?.stringValue,
        let median = object["median_ms"]?.numberValue
      else { return nil }
      return Row(
        workload: workload, metric: metric, variant: object["variant"]?.stringValue ?? "", median: median,
        nodes: object["nodes"]?.numberValue, fields: object)
    }
  }

  static func run(floor floorPath: String, ours oursPath: String) {
    let floor = rows(floorPath)
    let ours = rows(oursPath)
    print("| workload | metric | FlowRuntime variant | FlowRuntime ms | floor ms (fastest variant) | ratio |")
    print("|---|---|---|---|---|---|")
    for row in ours {
      let matches = floor.filter { $0.workload == row.workload && $0.metric == row.metric }
      var ratio = "–"
      var floorText = "–"
      if let best = matches.min(by: { $0.median < $1.median }) {
        // Compare per node when the node counts differ (our source node runs too).
        let ours = row.nodes.map { row.median / $0 } ?? row.median
        let theirs = best.nodes.map { best.median / $0 } ?? best.median
        ratio = Harness.format(ours / theirs, 2) + "×"
        floorText = "\(Harness.format(best.median, 6)) (\(best.variant.isEmpty ? "loop" : best.variant))"
      }
      for key in [
        "speedup_vs_sequential", "ratio_vs_resort", "ratio_vs_jsonserialization", "ratio_vs_serial", "bytes_per_node",
        "cutoff"
      ] {
        if let value = row.fields[key] { ratio += " \(key)=\(value.serialized(options: []))" }
      }
      print(
        "| \(row.workload) | \(row.metric) | \(row.variant) | \(Harness.format(row.median, 6)) | \(floorText) | \(ratio) |"
      )
    }
  }
}
