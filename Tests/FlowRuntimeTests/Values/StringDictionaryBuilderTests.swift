import FlowTestSupport
import Testing
@testable import FlowRuntime

/// `StringDictionaryBuilder` against a `[[UInt8]: UInt32]` reference: codes in order of first
/// appearance, the same code for the same bytes, the limit, and the short-key table (strings of
/// at most 16 bytes packed into one or two words) never confusing strings that share bytes,
/// differ only in length or hold zero bytes.
@Suite struct StringDictionaryBuilderTests {
  /// Byte strings made to collide in a packed key if the length were left out or the two
  /// overlapping loads missed a byte: zero bytes, shared prefixes and suffixes, 0–20 bytes.
  static func randomBytes(_ random: inout SeededRandom) -> [UInt8] {
    let length = Int.random(in: 0...20, using: &random)
    let alphabet: [UInt8] = [0, 0, 1, 65, 66, 0xC3, 0xA9, 255]
    if Int.random(in: 0..<3, using: &random) == 0 {
      // A prefix of one fixed string: many lengths of the same bytes.
      return Array([UInt8]("ABCDEFGHIJKLMNOPQRST".utf8).prefix(length))
    }
    return (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
  }

  @Test func codesFollowFirstAppearanceAndMatchAReference() {
    var random = SeededRandom(seed: 88)
    for round in 0..<40 {
      let limit = [3, 50, 300, 100_000][round % 4]
      var builder = StringDictionaryBuilder(limit: limit)
      var reference: [[UInt8]: UInt32] = [:]
      var order: [[UInt8]] = []
      for _ in 0..<3_000 {
        let bytes = Self.randomBytes(&random)
        let expected: UInt32? = reference[bytes] ?? (order.count < limit ? UInt32(order.count) : nil)
        if reference[bytes] == nil && expected != nil {
          reference[bytes] = expected
          order.append(bytes)
        }
        // Half through the raw-pointer entry, half through the array slice one.
        let code =
          Bool.random(using: &random)
          ? bytes.withUnsafeBytes { builder.code(of: $0) }
          : builder.code(of: bytes[...])
        #expect(code == expected, "round \(round): \(bytes)")
      }
      #expect(builder.count == order.count)
      #expect((0..<builder.count).map { Array(builder.entries.utf8($0)) } == order, "round \(round)")
    }
  }

  @Test func stringsThatShareAPackedWordStayApart() {
    var builder = StringDictionaryBuilder(limit: 1_000)
    let strings: [[UInt8]] = [
      [], [0], [0, 0], [0, 0, 0], [65, 66], [65, 66, 0], [65, 66, 66], [65, 66, 65, 66],
      [65, 66, 65, 66, 65], [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8, 9],
      [1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 6, 7, 8],
      Array("1996-03-13".utf8), Array("1996-03-31".utf8), Array("1996-03-1".utf8),
      Array("0123456789abcdef".utf8), Array("0123456789abcdeg".utf8), Array("1123456789abcdef".utf8),
      Array("0123456789abcdefg".utf8), [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    ]
    for (index, bytes) in strings.enumerated() {
      #expect(bytes.withUnsafeBytes { builder.code(of: $0) } == UInt32(index), "\(bytes)")
    }
    for (index, bytes) in strings.enumerated().reversed() {
      #expect(builder.code(of: bytes[...]) == UInt32(index), "\(bytes) again")
    }
    #expect(builder.count == strings.count)
  }
}
