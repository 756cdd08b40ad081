import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// `AtomicFileWriter.write(to:bypassesPageCache: true)`: whatever mix of page-aligned whole
/// pages (written with direct I/O) and unaligned pieces (which turn it off) a writer hands
/// over, the file holds exactly their concatenation, and a failure leaves no temporary file.
@Suite struct DirectWriteTests {
  /// One piece: `length` bytes at `offset` into a page-aligned buffer of `seed`-derived bytes.
  struct Piece {
    var offset: Int
    var length: Int
    var fill: UInt8
  }

  static func pieces(_ random: inout SeededRandom) -> [Piece] {
    (0..<Int.random(in: 1...8, using: &random)).map { _ in
      let fill = UInt8.random(in: 0...255, using: &random)
      if Bool.random(using: &random) {
        // Aligned whole pages, as the cache's sink hands them over.
        return Piece(offset: 0, length: 4_096 * Int.random(in: 1...300, using: &random), fill: fill)
      }
      return Piece(
        offset: Int.random(in: 0..<64, using: &random), length: Int.random(in: 0...20_000, using: &random), fill: fill)
    }
  }

  /// Writes `pieces` (each its own pattern) through the direct path; returns what they hold.
  static func write(_ pieces: [Piece], to target: CheckedTarget, failingAfter: Int? = nil) throws -> [UInt8] {
    var expected: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 300 * 4_096 + 64 + 20_000, alignment: 4_096)
    defer { buffer.deallocate() }
    try AtomicFileWriter().write(to: target, durable: false, bypassesPageCache: true) { emit in
      for (index, piece) in pieces.enumerated() {
        if index == failingAfter { throw AtomicFileWriterTests.InjectedFailure() }
        for position in 0..<piece.length {
          buffer[piece.offset + position] = piece.fill &+ UInt8(truncatingIfNeeded: position / 7)
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[piece.offset..<piece.offset + piece.length])
        expected.append(contentsOf: bytes)
        try emit(bytes)
      }
    }
    return expected
  }

  @Test(arguments: 0..<12)
  func theFileHoldsEveryPieceInOrder(seed: UInt64) throws {
    var random = SeededRandom(seed: 0xD1EC7 &+ seed)
    let folder = try AtomicFileWriterTests.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = try FileAccessPolicy(readableRoots: [], writableRoots: [folder]).target("out.bin", relativeTo: folder)
    let expected = try Self.write(Self.pieces(&random), to: target)
    #expect(FileManager.default.contents(atPath: folder + "/out.bin").map(Array.init) == expected)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.bin"])
  }

  @Test func aFailureAfterDirectPiecesLeavesNoTemporaryFile() throws {
    let folder = try AtomicFileWriterTests.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = try FileAccessPolicy(readableRoots: [], writableRoots: [folder]).target("out.bin", relativeTo: folder)
    let pieces = [
      Piece(offset: 0, length: 256 * 4_096, fill: 1), Piece(offset: 0, length: 4_096, fill: 2),
      Piece(offset: 3, length: 10, fill: 3)
    ]
    #expect(throws: AtomicFileWriterTests.InjectedFailure.self) {
      _ = try Self.write(pieces, to: target, failingAfter: 2)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }
}
