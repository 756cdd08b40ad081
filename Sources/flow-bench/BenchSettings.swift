/// The command line of `flow-bench`.
struct BenchSettings: Sendable {
  var workloads: [String] = []
  var quick = false
  /// `--sf X`: W13's TPC-H scale factor.
  var scaleFactor: Double?
  /// `--compare FLOOR.jsonl OURS.jsonl`: print ratios instead of running.
  var compare: (floor: String, ours: String)?

  init(_ arguments: [String]) {
    var index = 0
    while index < arguments.count {
      switch arguments[index] {
      case "--quick": quick = true
      case "--sf" where index + 1 < arguments.count:
        scaleFactor = Double(arguments[index + 1])
        index += 1
      case "--compare" where index + 2 < arguments.count:
        compare = (arguments[index + 1], arguments[index + 2])
        index += 2
      default: workloads.append(arguments[index].uppercased())
      }
      index += 1
    }
    if workloads.isEmpty { workloads = ["W1", "W2", "W3", "W4", "W5", "W6", "W7"] }
  }
}

/// Read once from the process arguments.
let benchSettings = BenchSettings(Array(CommandLine.arguments.dropFirst()))
