import FlowNodes
import Foundation
import Synchronization
import FlowNodesTestSupport

/// The `csv` target: the CSV reader's serial, parallel (memory and file, 1, 2 and 7 workers,
/// tiny blocks) and morsel reads of one input must agree (`CSVDifferentialRead`).
extension FuzzTargets {
  /// The longest input the csv target reads (longer ones are truncated): every read holds it
  /// whole, and one input costs six reads.
  static let csvInputLimit = 32 << 10

  /// The inputs at least one parallel read was compared on (the others every parallel read
  /// left to the serial one).
  static let csvCompared = Atomic<Int>(0)

  /// The folder of the csv target's file reads: made on first use, removed when the process
  /// exits (a broken property exits through `Harness.check` too). Each input's file is unlinked
  /// as soon as it is opened, so a trap leaves at most the empty folder.
  static let csvFolder: CSVDifferentialRead.ScratchFolder = {
    do {
      let folder = try CSVDifferentialRead.ScratchFolder()
      atexit { FuzzTargets.csvFolder.remove() }
      return folder
    } catch {
      FileHandle.standardError.write(Data("flow-bench fuzz csv: cannot make a temporary folder: \(error)\n".utf8))
      exit(2)
    }
  }()

  /// Reads the input (its first `csvInputLimit` bytes) every way, with options drawn from a
  /// hash of the bytes (so `--save-last` replays the same reads): accepted if the reference read
  /// gives a table, rejected if it fails; reads that differ are a broken property.
  static func csv(_ bytes: [UInt8]) -> Outcome {
    let input = Array(bytes.prefix(csvInputLimit))
    let verdict = CSVDifferentialRead.check(input, seed: fnv1a(input), folder: csvFolder)
    if verdict.comparedReads > 0 { csvCompared.add(1, ordering: .relaxed) }
    Harness.check(
      verdict.difference == nil,
      "fuzz csv: the reads of \(input.count) bytes differ: \(verdict.difference ?? "")")
    return verdict.referenceReadsTable ? .accepted : .rejected
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
  }
}
