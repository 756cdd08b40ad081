import Testing

@testable import FlowGraph
import FlowTestSupport

/// `UnsafeSmallASCIIString` makes short ASCII strings from their bytes: each must be the very
/// string the standard library makes of them (same text, equality, hash, behaviour when changed).
@Suite struct SmallASCIIStringTests {
  @Test func theLayoutHoldsOnThisPlatform() {
    #if arch(x86_64) || arch(arm64)
    #expect(UnsafeSmallASCIIString.isAvailable)
    #endif
  }

  @Test(arguments: 0..<200)
  func madeStringsAreTheStandardLibrarysStrings(seed: UInt64) {
    guard UnsafeSmallASCIIString.isAvailable else { return }
    var random = SeededRandom(seed: seed)
    let count = Int(random.next() % 16)
    let bytes = (0..<count).map { _ in UInt8(0x20 + random.next() % 0x5F) }
    let expected = String(decoding: bytes, as: UTF8.self)
    // At the end of a buffer (byte by byte) and with bytes after it (two word loads).
    let padding = (0..<Int(random.next() % 20)).map { _ in UInt8(random.next() % 0x80) }
    for buffer in [bytes, bytes + padding] {
      let made = buffer.withUnsafeBufferPointer { pointer in
        UnsafeSmallASCIIString.make(pointer.baseAddress!, count: count, end: pointer.baseAddress! + pointer.count)
      }
      #expect(made == expected)
      #expect(Array(made.utf8) == bytes)
      #expect(made.count == count && made.utf8.count == count)
      #expect(made.hashValue == expected.hashValue)
      #expect(made.unicodeScalars.allSatisfy { $0.isASCII })
      var changed = made
      changed += "é and a longer tail"
      #expect(changed == expected + "é and a longer tail")
      #expect(Set([made, expected]).count == 1)
    }
  }

  /// The parser's short strings (keys and values under 16 bytes) are made this way when ASCII.
  @Test(arguments: 0..<100)
  func parsedShortStringsAreTheirText(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let pieces = ["a", "Z", "0", " ", "~", "\u{E9}", "\u{1F600}", "_"]
    let texts = (0..<20).map { _ in
      (0..<Int(random.next() % 9)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }
    let json = "[" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    let value = try JSONValue.parse(json)
    #expect(value == .array(texts.map { .string($0) }))
    #expect(value.arrayValue?.map { $0.stringValue?.utf8.count } == texts.map { $0.utf8.count })
  }
}
