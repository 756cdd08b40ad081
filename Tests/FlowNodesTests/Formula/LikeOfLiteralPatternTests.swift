import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// A `like` pattern without `_` matches by searching for its literals between `%`s, and a
/// literal pattern is compiled once instead of broadcast: on random texts and patterns the
/// literal search agrees with the recursive reference and the token walk, and a `derive` of
/// `like(s, "…")` on flat and dictionary-encoded columns with nulls gives what the general
/// path (a pattern that is not a literal) gives.
@Suite struct LikeOfLiteralPatternTests {
  static let alphabet: [String] = ["a", "b", "é", "😀", "%", "_", " "]
  static let patternAlphabet: [String] = ["a", "b", "ab", "é", "😀", "%", "%", "%", "\\%", "\\_", "\\\\", " "]

  static func randomText(_ random: inout SeededRandom, length: ClosedRange<Int>, from alphabet: [String]) -> String {
    (0..<Int.random(in: length, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
  }

  @Test(arguments: 0..<30)
  func literalSearchMatchesTheReferenceAndTheTokenWalk(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    for _ in 0..<100 {
      let text = Self.randomText(&random, length: 0...30, from: Self.alphabet)
      let pattern = Self.randomText(&random, length: 0...7, from: Self.patternAlphabet)
      let compiled = LikePattern(Array(pattern.utf8))
      #expect(compiled.literals != nil, "\(pattern) has no _")
      let bytes = Array(("xé" + text + "é😀").utf8)
      let start = "xé".utf8.count, end = bytes.count - "é😀".utf8.count
      let expected = LikePatternPropertyTests.matches(
        ArraySlice(Array(text.unicodeScalars)), ArraySlice(LikePatternPropertyTests.tokens(pattern)))
      #expect(compiled.matches(bytes, from: start, to: end) == expected, "like(\"\(text)\", \"\(pattern)\")")
      #expect(compiled.matchesByTokens(bytes, from: start, to: end) == expected, "like(\"\(text)\", \"\(pattern)\")")
    }
  }

  @Test func aPatternWithAnUnderscoreWalksTheTokens() {
    #expect(LikePattern(Array("%a_b%".utf8)).literals == nil)
    #expect(LikePattern(Array("%a\\_b%".utf8)).literals?.middle == [Array("a_b".utf8)])
  }

  @Test func byteSearchFindsTheFirstOccurrenceInsideTheRange() {
    let bytes = Array("abcabcab".utf8)
    #expect(ByteSearch.firstIndex(of: Array("ca".utf8), in: bytes, from: 0, to: 8) == 2)
    #expect(ByteSearch.firstIndex(of: Array("ca".utf8), in: bytes, from: 3, to: 8) == 5)
    #expect(ByteSearch.firstIndex(of: Array("ca".utf8), in: bytes, from: 3, to: 6) == nil)
    #expect(ByteSearch.firstIndex(of: [], in: bytes, from: 4, to: 4) == 4)
    #expect(ByteSearch.firstIndex(of: Array("a".utf8), in: bytes, from: 5, to: 99) == nil)
  }

  @Test(arguments: [5, 23, 77]) func aLiteralPatternGivesWhatTheGeneralPathGives(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let words = ["special", "requests", "pending", "express", "é", "😀", "sp", "req"]
    var comments: [String?] = []
    for _ in 0..<600 {
      comments.append(
        Int.random(in: 0..<10, using: &random) == 0
          ? nil
          : (0..<Int.random(in: 0...6, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(
            separator: " "))
    }
    let table = try Table([("c", .strings(comments))])
    let patterns = ["%special%requests%", "special%", "%requests", "%é%😀", "express", "%", "", "sp%req%s"]
    for input in [table, DictionaryStringColumnTests.encoded(table)] {
      var columns: [JSONMember] = []
      for (index, pattern) in patterns.enumerated() {
        columns.append(JSONMember(key: "fast\(index)", value: .string("like(c, \"\(pattern)\")")))
        columns.append(JSONMember(key: "general\(index)", value: .string("like(c, concat(\"\(pattern)\", \"\"))")))
      }
      let output = try KindHarness.table("derive", ["columns": .object(JSONObject(columns))], [.table(input)])
      for (index, pattern) in patterns.enumerated() {
        let fast = try #require(output.column(named: "fast\(index)"))
        #expect(fast == output.column(named: "general\(index)"), "seed \(seed): \(pattern)")
      }
    }
  }

  /// `contains`, `startsWith` and `endsWith` of a literal run as a compiled `like` pattern (the
  /// literal's `%`, `_` and `\` escaped): on random texts, flat and dictionary-encoded, with
  /// nulls, they give what the general path gives.
  @Test(arguments: [3, 19, 64]) func containsStartsWithAndEndsWithOfALiteralGiveWhatTheGeneralPathGives(seed: UInt64)
    throws
  {
    var random = SeededRandom(seed: seed)
    var texts: [String?] = []
    for _ in 0..<500 {
      texts.append(
        Int.random(in: 0..<8, using: &random) == 0
          ? nil : Self.randomText(&random, length: 0...12, from: Self.alphabet + ["\\"]))
    }
    let table = try Table([("c", .strings(texts))])
    var literals = (0..<12).map { _ in Self.randomText(&random, length: 0...3, from: Self.alphabet + ["\\"]) }
    literals += ["", "%", "_", "\\", "a%b", "é😀"]
    for input in [table, DictionaryStringColumnTests.encoded(table)] {
      var columns: [JSONMember] = []
      var names: [(fast: String, general: String, formula: String)] = []
      for (index, literal) in literals.enumerated() {
        let quoted = literal.replacingOccurrences(of: "\\", with: "\\\\")
        for function in ["contains", "startsWith", "endsWith"] {
          let fast = "\(function)\(index)", general = "\(function)\(index)g"
          columns.append(JSONMember(key: fast, value: .string("\(function)(c, \"\(quoted)\")")))
          columns.append(JSONMember(key: general, value: .string("\(function)(c, concat(\"\(quoted)\", \"\"))")))
          names.append((fast, general, "\(function)(c, \"\(quoted)\")"))
        }
      }
      let output = try KindHarness.table("derive", ["columns": .object(JSONObject(columns))], [.table(input)])
      for name in names {
        let fast = try #require(output.column(named: name.fast))
        #expect(fast == output.column(named: name.general), "seed \(seed): \(name.formula)")
      }
    }
  }

  @Test func aFilterKeepsTheRowsThatDoNotMatch() throws {
    let table = try Table([
      ("c", .strings(["no special requests", "special then requests", "requests special", nil, ""]))
    ])
    let output = try KindHarness.table("filter", ["where": "not like(c, \"%special%requests%\")"], [.table(table)])
    #expect(output.jsonRows == [["c": "requests special"], ["c": ""]] as JSONValue)
  }
}
