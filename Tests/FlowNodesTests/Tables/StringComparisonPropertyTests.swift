import FlowTestSupport
import Testing
@testable import FlowNodes

/// Row formulas compare strings on their UTF-8 bytes (column with column, column with a
/// literal, literal with column): the same answers as comparing `String`s (for text in NFC,
/// where Swift's order is the order of the Unicode scalars) and as comparing the scalars, on
/// random strings with non-ASCII text, empty strings and nulls.
@Suite struct StringComparisonPropertyTests {
  static let pieces = ["", "a", "b", "Z", "0", " ", "é", "ü", "ß", "日", "本", "🙂", "aé", "zz", "\u{A0}", "ÿ", "\u{FFFD}"]

  static func randomText(_ random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
      .joined()
  }

  static func holds(_ op: String, _ a: String, _ b: String) -> Bool {
    let less = a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    let greater = b.unicodeScalars.lexicographicallyPrecedes(a.unicodeScalars)
    let byScalars: Bool
    let byString: Bool
    switch op {
    case "<": (byScalars, byString) = (less, a < b)
    case "<=": (byScalars, byString) = (!greater, a <= b)
    case "==": (byScalars, byString) = (!less && !greater, a == b)
    case "!=": (byScalars, byString) = (less || greater, a != b)
    case ">=": (byScalars, byString) = (!less, a >= b)
    default: (byScalars, byString) = (greater, a > b)
    }
    #expect(byScalars == byString, "\"\(a)\" \(op) \"\(b)\": the references agree")
    return byScalars
  }

  @Test func byteComparisonsEqualStringComparisons() throws {
    var random = SeededRandom(seed: 5)
    for round in 0..<40 {
      let count = 200
      let left: [Cell] = (0..<count).map { _ in
        Int.random(in: 0..<8, using: &random) == 0 ? .null : .string(Self.randomText(&random))
      }
      let right: [Cell] = (0..<count).map { _ in
        Int.random(in: 0..<8, using: &random) == 0 ? .null : .string(Self.randomText(&random))
      }
      let columns = [CellColumn("s", .string, left), CellColumn("t", .string, right)]
      let literal = Self.randomText(&random)
      for op in ["<", "<=", "==", "!=", ">=", ">"] {
        let quoted = "\"\(literal)\""
        let pairs = try evaluateRows("s \(op) t", columns)
        let withLiteral = try evaluateRows("s \(op) \(quoted)", columns)
        let literalFirst = try evaluateRows("\(quoted) \(op) t", columns)
        for row in 0..<count {
          let a: String? = if case .string(let s) = left[row] { s } else { nil }
          let b: String? = if case .string(let s) = right[row] { s } else { nil }
          let expected: Cell = a.flatMap { a in b.map { .bool(Self.holds(op, a, $0)) } } ?? .null
          #expect(pairs[row] == expected, "round \(round): \(left[row]) \(op) \(right[row])")
          #expect(
            withLiteral[row] == (a.map { .bool(Self.holds(op, $0, literal)) } ?? .null),
            "round \(round): \(left[row]) \(op) \(quoted)")
          #expect(
            literalFirst[row] == (b.map { .bool(Self.holds(op, literal, $0)) } ?? .null),
            "round \(round): \(quoted) \(op) \(right[row])")
        }
      }
    }
  }
}
