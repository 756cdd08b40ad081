import Foundation
import FlowRuntime

/// The command line of `flow-bench`.
struct BenchSettings: Sendable {
  var workloads: [String] = []
  var quick = false
  /// `--sf X`: W13's TPC-H scale factor.
  var scaleFactor: Double?
  /// `--compare FLOOR.jsonl OURS.jsonl`: print ratios instead of running.
  var compare: (floor: String, ours: String)?
  /// `--csv-off inPlace,strings,index,dictionaries` (or `all`): the CSV reader's paths turned
  /// off in the workloads that read CSV (W9), to compare with the default (every path on).
  var csvRead = CSVReadStrategy()
  /// `--threads N`: the threads of the workloads that read and compute tables (W9, W13), as
  /// `flow run --threads N` (default: the active processors).
  var workers = TableParallelism.defaultWorkers
  /// `--csv PATH`: W9 only writes its flights file there (for `Examples/flights`, or to compare
  /// with another tool on the same bytes).
  var flightsPath: String?
  /// `--read-loop N`: W9 only reads the whole flights file N times in one process.
  var readLoops: Int?
  /// `--read-floor`: with `--read-loop`, each read followed by one of the hand-written floor.
  var readFloor = false
  /// `--dir DIR`: W13's data folder, kept (generated once, reused); W13 refuses to generate
  /// into a folder holding `.csv` or `.tbl` files it did not write.
  var dataFolder: String?
  /// `--generate`: W13 only writes its data and documents (for `Scripts/compare-engines.sh`).
  var generateOnly = false
  /// `--phases run,steps,engine,updates`: W10's phases to run (default all), to profile one.
  var phases: Set<String>?

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
      case "--threads" where index + 1 < arguments.count:
        guard let count = Int(arguments[index + 1]), count >= 1 else {
          FileHandle.standardError.write(
            Data("--threads: expected a whole number ≥ 1, got '\(arguments[index + 1])'\n".utf8))
          exit(2)
        }
        workers = count
        index += 1
      case "--csv" where index + 1 < arguments.count:
        flightsPath = arguments[index + 1]
        index += 1
      case "--read-loop" where index + 1 < arguments.count:
        guard let loops = Int(arguments[index + 1]), loops > 0 else {
          FileHandle.standardError.write(
            Data("--read-loop: expected a whole number ≥ 1, got '\(arguments[index + 1])'\n".utf8))
          exit(2)
        }
        readLoops = loops
        index += 1
      case "--read-floor": readFloor = true
      case "--dir" where index + 1 < arguments.count:
        dataFolder = arguments[index + 1]
        index += 1
      case "--generate": generateOnly = true
      case "--phases" where index + 1 < arguments.count:
        phases = Set(arguments[index + 1].split(separator: ",").map(String.init))
        index += 1
      case "--csv-off" where index + 1 < arguments.count:
        csvRead = Self.csvRead(off: arguments[index + 1])
        index += 1
      default: workloads.append(arguments[index].uppercased())
      }
      index += 1
    }
    if workloads.isEmpty { workloads = ["W1", "W2", "W3", "W4", "W5", "W6", "W7"] }
  }

  /// The default strategy with the paths named in `list` (comma-separated) off; exits naming
  /// an unknown path.
  static func csvRead(off list: String) -> CSVReadStrategy {
    var strategy = CSVReadStrategy()
    for name in list.split(separator: ",") {
      switch name {
      case "inPlace": strategy.convertsNumbersInPlace = false
      case "strings": strategy.copiesStringsInPlace = false
      case "index": strategy.indexesPlainRecords = false
      case "dictionaries": strategy.encodesDictionaries = false
      case "all": strategy = .plain
      default:
        FileHandle.standardError.write(
          Data("--csv-off: unknown path '\(name)' (inPlace, strings, index, dictionaries, all)\n".utf8))
        exit(2)
      }
    }
    return strategy
  }
}

/// Read once from the process arguments.
let benchSettings = BenchSettings(Array(CommandLine.arguments.dropFirst()))
