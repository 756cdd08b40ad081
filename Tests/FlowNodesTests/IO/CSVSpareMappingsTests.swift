import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// Block-buffer mappings kept for the next read (`UnsafeCSVSpareMappings`): a freed buffer's
/// mapping is reused by the next buffer that fits it, a buffer on a reused mapping reads the new
/// file's bytes (never the old one's), and the spares stay within their count and bytes. Each
/// test has its own spares, so reads elsewhere in the process do not disturb it.
@Suite struct CSVSpareMappingsTests {
  static let megabyte = 1 << 20

  @Test func aFreedMappingIsReusedByTheNextBufferThatFits() {
    let spares = UnsafeCSVSpareMappings(mostSpares: 2, mostBytes: 64 * Self.megabyte)
    var first: UnsafeCSVStorage? = UnsafeCSVStorage(capacity: 6 * Self.megabyte, spares: spares)
    let base = first!.base
    #if os(Linux)
    #expect(first!.isMapped)
    first = nil
    #expect(spares.spares == [.init(address: Int(bitPattern: base), length: 6 * Self.megabyte)])
    let second = UnsafeCSVStorage(capacity: 5 * Self.megabyte, spares: spares)
    #expect(second.base == base && second.capacity == 5 * Self.megabyte)
    #expect(spares.spares.isEmpty)
    #else
    first = nil
    #expect(spares.spares.isEmpty, "only Linux maps block buffers")
    #endif
    _ = base
  }

  @Test func sparesStayWithinTheirCountAndBytes() {
    let spares = UnsafeCSVSpareMappings(mostSpares: 2, mostBytes: 14 * Self.megabyte)
    var storages: [UnsafeCSVStorage] = (0..<3).map { _ in UnsafeCSVStorage(capacity: 4 * Self.megabyte, spares: spares)
    }
    storages.removeAll()
    #if os(Linux)
    #expect(spares.spares.count == 2, "at most 2 kept of 3")
    // 8 MB are kept: a 6 MB mapping more would pass the 14 MB.
    var large: UnsafeCSVStorage? = UnsafeCSVStorage(capacity: 6 * Self.megabyte, spares: spares)
    #expect(spares.spares.count == 2)
    large = nil
    #expect(spares.spares.count == 2 && spares.spares.allSatisfy { $0.length == 4 * Self.megabyte })
    _ = large
    // Larger than every spare could be: never kept.
    var huge: UnsafeCSVStorage? = UnsafeCSVStorage(
      capacity: 16 * Self.megabyte, spares: UnsafeCSVSpareMappings(mostSpares: 4, mostBytes: 8 * Self.megabyte))
    #expect(huge!.isMapped)
    huge = nil
    _ = huge
    spares.release()
    #endif
    #expect(spares.spares.isEmpty)
  }

  @Test func aSmallBufferDoesNotTakeAMuchLargerSpare() {
    let spares = UnsafeCSVSpareMappings(mostSpares: 2, mostBytes: 64 * Self.megabyte)
    var large: UnsafeCSVStorage? = UnsafeCSVStorage(capacity: 20 * Self.megabyte, spares: spares)
    let base = large!.base
    large = nil
    _ = large
    let small = UnsafeCSVStorage(capacity: 4 * Self.megabyte, spares: spares)
    #expect(small.base != base, "a 4 MB buffer leaves a 20 MB spare")
    #if os(Linux)
    #expect(spares.spares.count == 1)
    let fitting = UnsafeCSVStorage(capacity: 12 * Self.megabyte, spares: spares)
    #expect(fitting.base == base, "a 12 MB buffer takes it")
    #expect(spares.spares.isEmpty)
    #endif
  }

  @Test func aBufferOnAReusedMappingReadsTheNewFile() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let spares = UnsafeCSVSpareMappings(mostSpares: 2, mostBytes: 64 * Self.megabyte)
    var random = SeededRandom(seed: 77)
    for round in 0..<3 {
      // Each file differs from the last in every byte's value range, and in its size: stale
      // bytes past the new file's end, or of the old file, would show.
      let count = 4 * Self.megabyte + 100_000 * round + Int.random(in: 0..<1_000, using: &random)
      let seed = UInt32.random(in: 1...UInt32.max, using: &random)
      let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        var state = seed
        for index in 0..<count {
          state = state &* 1_664_525 &+ 1_013_904_223
          buffer[index] = UInt8(truncatingIfNeeded: state >> 26) &+ UInt8(64 * round)
        }
        initialized = count
      }
      let path = folder + "/f\(round).bin"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try FileAccessPolicy.unrestricted.open(path, relativeTo: folder)
      var input = UnsafeCSVFileBuffer(file, size: bytes.count, capacity: 5 * Self.megabyte, spares: spares)
      input.workers = 2
      #if os(Linux)
      #expect(round == 0 || spares.spares.isEmpty, "round \(round) reuses the last round's mapping")
      #endif
      var read: [UInt8] = []
      while true {
        try input.fill()
        if input.filled == 0 { break }
        read += input.withFilled { Array($0.prefix(777_777)) }
        input.consume(Swift.min(input.filled, 777_777))
      }
      #expect(read == bytes, "round \(round)")
    }
    #if os(Linux)
    #expect(spares.spares.count == 1)
    #endif
  }
}
