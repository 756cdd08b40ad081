import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// `like` against a plain recursive matcher over Unicode scalars, on random texts and patterns
/// over a small alphabet (so matches are frequent), with escapes and non-ASCII scalars.
@Suite struct LikePatternPropertyTests {
  /// A token of the reference: a literal scalar, `_`, or `%`.
  enum Token: Equatable { case literal(Unicode.Scalar), one, many }

  /// The pattern's tokens as the specification reads them.
  static func tokens(_ pattern: String) -> [Token] {
    var tokens: [Token] = []
    var escaped = false
    for scalar in pattern.unicodeScalars {
      if escaped {
        tokens.append(.literal(scalar))
        escaped = false
      } else if scalar == "\\" {
        escaped = true
      } else {
        tokens.append(scalar == "%" ? .many : (scalar == "_" ? .one : .literal(scalar)))
      }
    }
    if escaped { tokens.append(.literal("\\")) }
    return tokens
  }

  /// The reference: plain recursion (exponential at worst, fine for short inputs).
  static func matches(_ text: ArraySlice<Unicode.Scalar>, _ tokens: ArraySlice<Token>) -> Bool {
    guard let first = tokens.first else { return text.isEmpty }
    switch first {
    case .many:
      for start in text.startIndex...text.endIndex where matches(text[start...], tokens.dropFirst()) { return true }
      return false
    case .one:
      return !text.isEmpty && matches(text.dropFirst(), tokens.dropFirst())
    case .literal(let scalar):
      return text.first == scalar && matches(text.dropFirst(), tokens.dropFirst())
    }
  }

  static let alphabet: [String] = ["a", "b", "é", "😀", "%", "_"]
  static let patternAlphabet: [String] = ["a", "b", "é", "😀", "%", "%", "_", "\\%", "\\_", "\\\\", "\\a"]

  @Test(arguments: 0..<40)
  func likeMatchesTheRecursiveReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var texts: [String] = [], patterns: [String] = []
    for _ in 0..<100 {
      texts.append(
        (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined())
      patterns.append(
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
          Self.patternAlphabet.randomElement(using: &random)!
        }.joined() + (Int.random(in: 0..<20, using: &random) == 0 ? "\\" : ""))
    }
    let result = RowVector.like(StringColumn(texts), StringColumn(patterns))
    for (row, (text, pattern)) in zip(texts, patterns).enumerated() {
      let expected = Self.matches(ArraySlice(Array(text.unicodeScalars)), ArraySlice(Self.tokens(pattern)))
      #expect(result[row] == expected, "like(\"\(text)\", \"\(pattern)\")")
    }
  }

  @Test func aHostilePatternStaysLinearInPractice() {
    // `%a%a%a…b` over a long run of `a`: exponential for naive backtracking.
    let text = String(repeating: "a", count: 20_000)
    let pattern = String(repeating: "%a", count: 30) + "%b"
    #expect(RowVector.like(StringColumn([text]), StringColumn([pattern])) == [false])
    #expect(RowVector.like(StringColumn([text + "b"]), StringColumn([pattern])) == [true])
  }
}
