import Foundation
import Testing

import FlowGraph

/// Integers are exact (Reference.md, "Documents"): a number without fraction or exponent that fits `Int64` is an
/// `.integer` when read and is written back digit for digit; anything else is a `Double`.
@Suite struct JSONIntegerTests {
  static let twoTo53PlusOne: Int64 = 9_007_199_254_740_993

  /// Text → the exact value it reads as.
  static let exactIntegers: [(String, Int64)] = [
    ("0", 0), ("7", 7), ("-1", -1), ("9007199254740993", twoTo53PlusOne), ("-9007199254740993", -twoTo53PlusOne),
    ("1234567890123456789", 1_234_567_890_123_456_789),
    ("9223372036854775807", .max), ("9223372036854775806", .max - 1), ("-9223372036854775808", .min)
  ]

  @Test func integerLiteralsThatFitInt64ReadExactly() throws {
    for (text, expected) in Self.exactIntegers {
      let value = try JSONValue.parse(text)
      #expect(value.isIdentical(to: .integer(expected)), "\(text) read as \(value)")
      #expect(value.integerValue == expected)
      #expect(try JSONValue.parse("[\(text)]").isIdentical(to: .array([.integer(expected)])))
      #expect(try JSONValue.parse("{\"k\": \(text)}").isIdentical(to: .object(["k": .integer(expected)])))
    }
  }

  @Test(arguments: [
    "9223372036854775808", "-9223372036854775809", "18446744073709551616", "12345678901234567890123",
    "1.0", "1e3", "1E3", "-2.5", "9007199254740993.0", "0.0", "-0", "-0.0", "1e-2"
  ])
  func numbersWithAFractionAnExponentOrOutOfRangeAreDoubles(text: String) throws {
    let value = try JSONValue.parse(text)
    #expect(value.isIdentical(to: .number(try #require(Double(text)))), "\(text) read as \(value)")
  }

  @Test func minusZeroStaysTheDoubleMinusZeroAndWritesBackAsWritten() throws {
    let value = try JSONValue.parse("-0")
    #expect(value.numberValue?.sign == .minus)
    #expect(value.serialized(options: []) == "-0")
    #expect(value == .integer(0), "numerically zero")
  }

  @Test func syntaxErrorsInNumbersAreUnchanged() {
    for text in ["01", "-01", "-", "1.", "1e", "--1", "00", "-a"] {
      #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue.parse(text) }
    }
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse("[1,01]") }
  }

  @Test func integersAreWrittenDigitForDigit() throws {
    for (text, expected) in Self.exactIntegers {
      #expect(JSONValue.integer(expected).serialized(options: []) == text)
      #expect(try JSONValue.parse(text).serialized(options: []) == text)
      #expect(JSONValue.array([.integer(expected)]).serialized(options: [.prettyPrinted]) == "[\n  \(text)\n]")
    }
    #expect(try JSONValue.parse("9223372036854775808").serialized(options: []) == "9.223372036854776e+18")
  }

  @Test func wholeDoublesAreStillWrittenWithoutAFraction() {
    #expect(JSONValue.number(150).serialized(options: []) == "150")
    #expect(JSONValue.array([.number(150), .number(-60.5)]).serialized(options: []) == "[150,-60.5]")
  }

  @Test func integersEqualDoublesOfExactlyTheirValueAndHashAlike() {
    #expect(JSONValue.integer(3) == .number(3))
    #expect(JSONValue.number(3) == .integer(3))
    #expect(JSONValue.integer(0) == .number(-0.0))
    #expect(JSONValue.integer(Self.twoTo53PlusOne) != .number(9_007_199_254_740_992))
    #expect(JSONValue.integer(.max) != .number(9_223_372_036_854_775_808))
    #expect(JSONValue.integer(3) != .string("3"))
    #expect(Set<JSONValue>([.integer(3), .number(3), .integer(4)]).count == 2)
    #expect(JSONValue.integer(3).hashValue == JSONValue.number(3).hashValue)
    #expect(JSONValue.array([.integer(1), ["a": .integer(2)]]) == .array([.number(1), ["a": .number(2)]]))
    #expect(!JSONValue.integer(3).isIdentical(to: .number(3)))
    #expect(!JSONValue.number(0).isIdentical(to: .number(-0.0)))
    #expect(!JSONValue.array([.integer(1)]).isIdentical(to: .array([.number(1)])))
    #expect(!JSONValue.object(["a": .integer(1)]).isIdentical(to: .object(["a": .number(1)])))
  }

  @Test func accessorsGiveDoublesForBothCasesAndExactIntegers() {
    #expect(JSONValue.integer(.max).numberValue == 9_223_372_036_854_775_807.0)
    #expect(JSONValue.integer(.max).integerValue == .max)
    #expect(JSONValue.number(1e3).integerValue == 1000)
    #expect(JSONValue.number(1.5).integerValue == nil)
    #expect(JSONValue.number(9_223_372_036_854_775_808).integerValue == nil)
    #expect(JSONValue.integer(5).typeName == "number")
    let literal: JSONValue = 42
    #expect(literal.isIdentical(to: .integer(42)))
  }

  @Test func codableKeepsIntegersExact() throws {
    let value: JSONValue = [
      "big": .integer(.max), "small": .integer(.min), "mid": .integer(Self.twoTo53PlusOne),
      "half": .number(0.5)
    ]
    let data = try JSONEncoder().encode(value)
    let text = String(decoding: data, as: UTF8.self)
    #expect(
      text.contains("9223372036854775807") && text.contains("-9223372036854775808") && text.contains("9007199254740993")
    )
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    #expect(decoded.objectValue?["big"]?.isIdentical(to: .integer(.max)) == true)
    #expect(decoded.objectValue?["small"]?.isIdentical(to: .integer(.min)) == true)
    #expect(decoded.objectValue?["mid"]?.isIdentical(to: .integer(Self.twoTo53PlusOne)) == true)
    #expect(decoded.objectValue?["half"] == .number(0.5))
  }

  /// A document whose params hold the extremes, on the element scanner's path (flat params) and
  /// on the generic path (a nested param sends the node there).
  static let document = """
    {"nodes": [
      {"id": "flat", "position": [150, 60], "zIndex": 9007199254740992,
       "data": {"kind": "add", "params": {"max": 9223372036854775807, "min": -9223372036854775808,
                                          "mid": 9007199254740993, "over": 9223372036854775808}}},
      {"id": "nested", "position": [150, 60],
       "data": {"kind": "add", "params": {"max": 9223372036854775807, "min": -9223372036854775808,
                                          "mid": 9007199254740993, "over": 9223372036854775808, "list": [9223372036854775806]}}}
    ], "edges": []}
    """

  @Test func documentParamsKeepIntegersExactOnBothDecodingPaths() throws {
    let streamed = try FlowDocument(jsonBytes: Array(Self.document.utf8))
    let plain = try FlowDocument(json: try JSONValue.parse(Self.document))
    for document in [streamed, plain] {
      for node in document.nodes {
        let params = node.data.params
        #expect(params["max"]?.isIdentical(to: .integer(.max)) == true, "\(node.id)")
        #expect(params["min"]?.isIdentical(to: .integer(.min)) == true, "\(node.id)")
        #expect(params["mid"]?.isIdentical(to: .integer(Self.twoTo53PlusOne)) == true, "\(node.id)")
        #expect(params["over"]?.isIdentical(to: .number(9_223_372_036_854_775_808)) == true, "\(node.id)")
      }
      #expect(document.nodes[1].data.params["list"]?.isIdentical(to: [.integer(.max - 1)]) == true)
      #expect(document.nodes[0].zIndex == 1 << 53)
      let written = document.jsonString()
      #expect(written.contains("\"max\" : 9223372036854775807"))
      #expect(written.contains("\"min\" : -9223372036854775808"))
      #expect(written.contains("\"mid\" : 9007199254740993"))
      #expect(written.contains("\"over\" : 9.223372036854776e+18"))
      #expect(written.contains("9223372036854775806"))
      #expect(!written.contains("150.0") && !written.contains("1.5e"), "positions are written as before")
      let reread = try FlowDocument(jsonBytes: Array(written.utf8))
      #expect(reread.jsonString() == written)
      for (node, again) in zip(document.nodes, reread.nodes) {
        for member in node.data.params.members {
          #expect(again.data.params[member.key]?.isIdentical(to: member.value) == true, "\(node.id).\(member.key)")
        }
      }
    }
  }

  @Test func aZIndexBeyondTwoTo53IsRejectedExactly() {
    let text = #"{"nodes": [{"id": "a", "zIndex": 9007199254740993, "data": {"kind": "add"}}], "edges": []}"#
    #expect(throws: (any Error).self) { try FlowDocument(jsonBytes: Array(text.utf8)) }
    #expect(throws: (any Error).self) { try FlowDocument(json: try JSONValue.parse(text)) }
  }
}
