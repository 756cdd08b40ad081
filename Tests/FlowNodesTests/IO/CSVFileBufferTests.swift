import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// The block readers' file buffer (`UnsafeCSVFileBuffer`) against a model: after any sequence
/// of fills, consumes, restarts and grows, its filled bytes are the file's bytes that end at
/// its offset; a fill leaves it full or at the file's end (after a restart that kept the bytes,
/// it only reads into the room after them); a restart at an offset it still holds keeps those
/// bytes instead of reading them again.
@Suite struct CSVFileBufferTests {
  @Test func filledBytesAreTheFilesBytesAfterEveryStep() throws {
    var random = SeededRandom(seed: 4_242)
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var steps = 0, keptRestarts = 0, compacted = 0
    for round in 0..<40 {
      let bytes = (0..<pick(0..<30_000)).map { _ in UInt8(truncatingIfNeeded: pick(0..<256)) }
      let path = folder + "/f\(round).bin"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try FileAccessPolicy.unrestricted.open(path, relativeTo: folder)
      var input = UnsafeCSVFileBuffer(file, size: bytes.count, capacity: pick(64..<6_000))
      var kept = false
      input.workers = pick(1..<4)
      input.minimumParallelBytes = pick(16..<600)
      func check(_ step: String) {
        let filled = input.withFilled { Array($0) }
        #expect(
          input.offset >= input.filled && filled == Array(bytes[(input.offset - input.filled)..<input.offset]),
          "round \(round), \(step): filled \(input.filled) up to offset \(input.offset)")
        #expect(input.atEnd == (input.offset == bytes.count), "round \(round), \(step)")
      }
      for _ in 0..<60 {
        switch pick(0..<10) {
        case 0..<4:
          let before = input.filled
          try input.fill()
          check("fill")
          #expect(
            input.atEnd || input.filled == input.capacity || (kept && input.filled >= before),
            "round \(round): a fill leaves \(input.filled) of \(input.capacity) before the end")
          if input.filled == input.capacity && before > 0 && before < input.capacity { compacted += 1 }
        case 4..<7:
          input.consume(pick(0..<input.filled + 1))
          kept = false
          check("consume")
        case 7..<9:
          let offset = input.offset
          let start = pick(0..<2) == 0 ? pick(0..<bytes.count + 1) : Swift.max(0, offset - pick(0..<input.filled + 1))
          let holds = start >= offset - input.filled && start <= offset
          input.restart(at: start)
          check("restart at \(start)")
          if holds {
            #expect(
              input.offset == offset && input.filled == offset - start,
              "round \(round): a restart inside the buffer keeps its bytes")
            keptRestarts += 1
          } else {
            #expect(input.offset == start && input.filled == 0)
          }
          kept = holds
        default:
          if input.capacity < 1 << 15 {
            let capacity = input.capacity
            input.grow()
            kept = false
            check("grow")
            #expect(input.capacity == capacity * 2)
          }
        }
        steps += 1
      }
    }
    #expect(
      steps == 2_400 && keptRestarts > 100 && compacted > 20,
      "steps \(steps), restarts kept \(keptRestarts), compacted fills \(compacted)")
  }
}
