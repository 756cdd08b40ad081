import FlowTestSupport
import Testing
@testable import FlowNodes

/// The number column's fast path (`UnsafeDecimalParser.plain`) gives the number the full parser
/// gives, bit for bit, on random short decimals, and declines what it does not cover.
@Suite struct DecimalFastPathTests {
  static func plain(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { UnsafeDecimalParser.plain($0, 0, $0.count) }
  }

  @Test func fastPathEqualsTheFullParser() {
    var random = SeededRandom(seed: 3)
    let alphabet = Array("0123456789000.-+e ")
    var covered = 0
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...19, using: &random)
      let text = String(
        (0..<length).map { _ in
          alphabet[
            Int.random(in: 0..<(Int.random(in: 0..<4, using: &random) == 0 ? alphabet.count : 13), using: &random)]
        })
      guard let fast = Self.plain(text) else { continue }
      covered += 1
      let full: Double? =
        switch UnsafeDecimalParser.parse(text) {
        case .integer(let n)?: Double(n)
        case .number(let x)?: x
        case nil: nil
        }
      #expect(full?.bitPattern == fast.bitPattern, "\(text): \(fast) against \(String(describing: full))")
    }
    #expect(covered > 5_000)
    for text in [
      "", "-", ".", "1.2.3", "+1", " 1", "1e3", "1234567890123456", "-0", "-0.0", "5.", ".5", "-.25", "0.08", "92306.59"
    ] {
      let fast = Self.plain(text)
      if text == "-0" { #expect(fast?.bitPattern == 0.0.bitPattern) }
      if text == "-0.0" { #expect(fast?.bitPattern == (-0.0).bitPattern) }
      if ["", "-", ".", "1.2.3", "+1", " 1", "1e3", "1234567890123456"].contains(text) {
        #expect(fast == nil, "\(text)")
      }
      if ["5.", ".5", "-.25", "0.08", "92306.59"].contains(text) { #expect(fast == Double(text), "\(text)") }
    }
  }
}
