import Foundation
import Testing

@testable import FlowGraph

/// The error `JSONValue.parse` throws for `text`, or `nil` when it parses.
private func parseError(_ text: String) -> JSONSyntaxError? {
  parseError(Array(text.utf8))
}

private func parseError(_ bytes: [UInt8]) -> JSONSyntaxError? {
  do {
    _ = try JSONValue.parse(bytes)
    return nil
  } catch {
    return error
  }
}

private func expectError(
  _ text: String, _ message: String, line: Int, column: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectError(Array(text.utf8), message, line: line, column: column, sourceLocation: sourceLocation)
}

private func expectError(
  _ bytes: [UInt8], _ message: String, line: Int, column: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let error = parseError(bytes) else {
    Issue.record("expected a syntax error: \(message)", sourceLocation: sourceLocation)
    return
  }
  #expect(error.message == message, sourceLocation: sourceLocation)
  #expect(error.line == line, "line", sourceLocation: sourceLocation)
  #expect(error.column == column, "column", sourceLocation: sourceLocation)
}

@Suite struct JSONParserTests {
  // MARK: - Values

  @Test("Parses every kind of top-level value")
  func parsesEveryKindOfTopLevelValue() throws {
    #expect(try JSONValue.parse("null") == .null)
    #expect(try JSONValue.parse("true") == .bool(true))
    #expect(try JSONValue.parse("false") == .bool(false))
    #expect(try JSONValue.parse("42") == .number(42))
    #expect(try JSONValue.parse("\"hi\"") == .string("hi"))
    #expect(try JSONValue.parse("[]") == .array([]))
    #expect(try JSONValue.parse("{}") == .object(JSONObject()))
  }

  @Test("Parses nested arrays and objects in document order")
  func parsesNestedArraysAndObjectsInDocumentOrder() throws {
    let value = try JSONValue.parse(#"{"z": [1, {"b": null, "a": [true, "x"]}], "y": {}, "x": []}"#)
    let expected: JSONValue = [
      "z": [1, ["b": nil, "a": [true, "x"]]],
      "y": [:],
      "x": []
    ]
    #expect(value == expected)
    #expect(value.objectValue?.keys == ["z", "y", "x"])
    #expect(value.objectValue?["z"]?.arrayValue?[1].objectValue?.keys == ["b", "a"])
  }

  @Test("Keeps duplicate keys and looks up the last one")
  func keepsDuplicateKeysAndLooksUpTheLastOne() throws {
    let object = try #require(try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#).objectValue)
    #expect(object.keys == ["a", "b", "a"])
    #expect(object.count == 3)
    #expect(object["a"] == .number(3))
    #expect(object["b"] == .number(2))
    #expect(object["c"] == nil)
  }

  @Test("Skips insignificant whitespace and a UTF-8 byte order mark")
  func skipsInsignificantWhitespaceAndAUTF8ByteOrderMark() throws {
    #expect(try JSONValue.parse(" \t\r\n[ 1 ,\n\t2 ] \r\n") == [1, 2])
    #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\":true}".utf8)) == ["a": true])
  }

  @Test("Parses bytes, Data and String identically")
  func parsesBytesDataAndStringIdentically() throws {
    let text = #"{"name": "café ☕️", "values": [1.5, -2, 3e2]}"#
    let fromString = try JSONValue.parse(text)
    let fromBytes = try JSONValue.parse(Array(text.utf8))
    let fromData = try JSONValue.parse(Data(text.utf8))
    #expect(fromString == fromBytes)
    #expect(fromString == fromData)
    #expect(fromString.objectValue?["name"]?.stringValue == "café ☕️")
    #expect(fromString.objectValue?["values"] == [1.5, -2, 300])
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data()) }
  }

  // MARK: - Structural errors

  @Test("Reports an empty document")
  func reportsAnEmptyDocument() {
    expectError("", "unexpected end of input: the document is empty", line: 1, column: 1)
    expectError("  \n  ", "unexpected end of input: the document is empty", line: 2, column: 3)
  }

  @Test("Reports unexpected end of input inside containers, strings and literals")
  func reportsUnexpectedEndOfInputInsideContainersStringsAndLiterals() {
    expectError("[1, 2", "unexpected end of input inside an array", line: 1, column: 6)
    expectError("[1,", "unexpected end of input inside an array", line: 1, column: 4)
    expectError("[", "unexpected end of input inside an array", line: 1, column: 2)
    expectError("{\"a\": [\n", "unexpected end of input inside an array", line: 2, column: 1)
    expectError("{", "unexpected end of input inside an object", line: 1, column: 2)
    expectError("{\"a\"", "unexpected end of input inside an object", line: 1, column: 5)
    expectError("{\"a\":", "unexpected end of input inside an object", line: 1, column: 6)
    expectError("{\"a\": 1", "unexpected end of input inside an object", line: 1, column: 8)
    expectError("{\"a\": 1,", "unexpected end of input inside an object", line: 1, column: 9)
    expectError("\"abc", "unexpected end of input inside a string", line: 1, column: 5)
    expectError("\"abc\\", "unexpected end of input inside a string", line: 1, column: 6)
    expectError("\"\\u12", "unexpected end of input inside a string", line: 1, column: 6)
    expectError("tru", "unexpected end of input inside literal 'true'", line: 1, column: 4)
    expectError("-", "unexpected end of input inside a number", line: 1, column: 2)
    expectError("1.", "unexpected end of input inside a number", line: 1, column: 3)
    expectError("1e", "unexpected end of input inside a number", line: 1, column: 3)
  }

  @Test("Reports misplaced punctuation with line and column")
  func reportsMisplacedPunctuationWithLineAndColumn() {
    let document = """
      {
        "a": 1,
        "b": [1, 2] "c": 3
      }
      """
    expectError(document, "expected ',' or '}' after an object member", line: 3, column: 15)
    expectError(#"{"a" 1}"#, "expected ':' after object key", line: 1, column: 6)
    expectError("[1 2]", "expected ',' or ']' after an array element", line: 1, column: 4)
    expectError("[1, 2}", "expected ',' or ']' after an array element", line: 1, column: 6)
    expectError("{1: 2}", "expected a string key or '}' after '{'", line: 1, column: 2)
    expectError(#"{"a": 1, b: 2}"#, "expected a string key after ',' in object", line: 1, column: 10)
    expectError("[,1]", "unexpected character ','", line: 1, column: 2)
    expectError("[1,,2]", "unexpected character ','", line: 1, column: 4)
    expectError("]", "unexpected character ']'", line: 1, column: 1)
  }

  @Test("Rejects trailing commas")
  func rejectsTrailingCommas() {
    expectError("[1, 2,]", "trailing comma in array", line: 1, column: 6)
    expectError("[1,\n  ]", "trailing comma in array", line: 1, column: 3)
    expectError(#"{"a": 1,}"#, "trailing comma in object", line: 1, column: 8)
    expectError("{\n  \"a\": 1,\n}", "trailing comma in object", line: 2, column: 9)
  }

  @Test("Rejects comments, NaN, Infinity and other stray characters")
  func rejectsCommentsNaNInfinityAndOtherStrayCharacters() {
    expectError("x", "unexpected character 'x'", line: 1, column: 1)
    expectError("[1, x]", "unexpected character 'x'", line: 1, column: 5)
    expectError("// comment\n1", "unexpected character '/'", line: 1, column: 1)
    expectError("[1 /* comment */]", "expected ',' or ']' after an array element", line: 1, column: 4)
    expectError("NaN", "unexpected character 'N'", line: 1, column: 1)
    expectError("Infinity", "unexpected character 'I'", line: 1, column: 1)
    expectError("-Infinity", "expected a digit after '-'", line: 1, column: 2)
    expectError("'a'", "unexpected character '''", line: 1, column: 1)
    expectError("nul", "unexpected end of input inside literal 'null'", line: 1, column: 4)
    expectError("[nil]", "invalid literal: expected 'null'", line: 1, column: 3)
    expectError("True", "unexpected character 'T'", line: 1, column: 1)
    expectError("fals3", "invalid literal: expected 'false'", line: 1, column: 5)
    expectError("\u{0B}1", "unexpected control character U+000B", line: 1, column: 1)
    expectError("[\u{201C}a\u{201D}]", "unexpected character '\u{201C}' (U+201C)", line: 1, column: 2)
    expectError([0x5B, 0xFF, 0x5D], "invalid UTF-8 byte 0xFF", line: 1, column: 2)
  }

  @Test("Rejects trailing characters after the top-level value")
  func rejectsTrailingCharactersAfterTheTopLevelValue() {
    expectError("1 2", "trailing characters after the top-level value", line: 1, column: 3)
    expectError("{}\n\n  {}", "trailing characters after the top-level value", line: 3, column: 3)
    expectError("truex", "trailing characters after the top-level value", line: 1, column: 5)
    expectError("[1]]", "trailing characters after the top-level value", line: 1, column: 4)
    expectError("\"a\"\0", "trailing characters after the top-level value", line: 1, column: 4)
  }

  @Test("Describes errors as line, column and message")
  func describesErrorsAsLineColumnAndMessage() throws {
    let error = try #require(parseError("{\n  \"a\": 1,\n  \"b\": 2 \"c\"\n}"))
    #expect(error.line == 3)
    #expect(error.column == 10)
    #expect(error.offset == 21)
    #expect(error.description == "line 3, column 10: expected ',' or '}' after an object member")
    #expect("\(error)" == error.description)
  }

  // MARK: - Numbers

  @Test("Parses integers exactly")
  func parsesIntegersExactly() throws {
    #expect(try JSONValue.parse("0") == .number(0))
    #expect(try JSONValue.parse("7") == .number(7))
    #expect(try JSONValue.parse("-123") == .number(-123))
    #expect(try JSONValue.parse("123456789012345") == .number(123_456_789_012_345))
    #expect(try JSONValue.parse("9007199254740992") == .number(9_007_199_254_740_992))
    #expect(try JSONValue.parse("-9007199254740991") == .number(-9_007_199_254_740_991))
    // Reference.md, "Documents": integers that fit Int64 are exact (this read `.number(9_007_199_254_740_992)`,
    // rounded to even, before integers were exact).
    #expect(try JSONValue.parse("9007199254740993") == .integer(9_007_199_254_740_993))
    #expect(try JSONValue.parse("9007199254740993") != .number(9_007_199_254_740_992))
    #expect(try JSONValue.parse("18446744073709551616") == .number(18_446_744_073_709_551_616))
  }

  @Test("Parses fractions and exponents with correct rounding")
  func parsesFractionsAndExponentsWithCorrectRounding() throws {
    let samples = [
      "0.1", "0.5", "1.5", "2.25", "3.141592653589793", "2.718281828459045", "1e10", "1E10", "1e+10",
      "1e-10", "1.5e-7", "6.02214076e23", "1.7976931348623157e308", "2.2250738585072014e-308",
      "5e-324", "4.9e-324", "0.000001", "0.0000000000000000000000000001", "123456789.123456789",
      "1234567890123456789012345678901234567890", "0.30000000000000004", "1e22", "1e23", "9.999999999999999e22",
      "8.98846567431158e307", "100e-2", "0e0", "0.0", "12345678901234567890e-20",
      "1.00000000000000011102230246251565404236316680908203125"
    ]
    for text in samples {
      let expected = try #require(Double(text))
      #expect(try JSONValue.parse(text) == .number(expected), "\(text)")
      #expect(try JSONValue.parse("-" + text) == .number(-expected), "-\(text)")
    }
    #expect(try JSONValue.parse("1e308") == .number(1e308))
    #expect(try JSONValue.parse("[1e-400]") == [0])
    #expect(try JSONValue.parse("0e99999999999999999999") == .number(0))
  }

  @Test("Preserves negative zero")
  func preservesNegativeZero() throws {
    for text in ["-0", "-0.0", "-0e5", "-0.000"] {
      let number = try #require(try JSONValue.parse(text).numberValue)
      #expect(number == 0)
      #expect(number.sign == .minus, "\(text)")
    }
    #expect(try JSONValue.parse("0").numberValue?.sign == .plus)
  }

  @Test("Reports numbers out of range")
  func reportsNumbersOutOfRange() {
    expectError("1e400", "number out of range", line: 1, column: 1)
    expectError("[0, -1e400]", "number out of range", line: 1, column: 5)
    expectError("1" + String(repeating: "0", count: 400), "number out of range", line: 1, column: 1)
    expectError("1e99999999999999999999", "number out of range", line: 1, column: 1)
  }

  @Test("Rejects malformed numbers")
  func rejectsMalformedNumbers() {
    expectError("01", "leading zeros are not allowed", line: 1, column: 2)
    expectError("-007", "leading zeros are not allowed", line: 1, column: 3)
    expectError("+1", "unexpected character '+'", line: 1, column: 1)
    expectError(".5", "unexpected character '.'", line: 1, column: 1)
    expectError("-a", "expected a digit after '-'", line: 1, column: 2)
    expectError("1.e5", "expected a digit after the decimal point", line: 1, column: 3)
    expectError("[1.]", "expected a digit after the decimal point", line: 1, column: 4)
    expectError("1e+", "unexpected end of input inside a number", line: 1, column: 4)
    expectError("1ex", "expected a digit in the exponent", line: 1, column: 3)
    expectError("1e+-2", "expected a digit in the exponent", line: 1, column: 4)
    expectError("0x10", "trailing characters after the top-level value", line: 1, column: 2)
    expectError("1.5.2", "trailing characters after the top-level value", line: 1, column: 4)
  }

  // MARK: - Strings

  @Test("Decodes every escape")
  func decodesEveryEscape() throws {
    let value = try JSONValue.parse(#""a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u20AC\u0000""#)
    #expect(value == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti" + "A\u{E9}\u{20AC}\u{0}"))
    #expect(try JSONValue.parse(#""\\""#) == .string("\\"))
    #expect(try JSONValue.parse(#"{"k\"ey": "v"}"#).objectValue?["k\"ey"] == .string("v"))
  }

  @Test("Decodes surrogate pairs")
  func decodesSurrogatePairs() throws {
    #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try JSONValue.parse(#""x\ud834\udd1ey""#) == .string("x𝄞y"))
    #expect(try JSONValue.parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    #expect(try JSONValue.parse(#""\uD800\uDC00""#) == .string("\u{10000}"))
  }

  @Test("Rejects lone surrogates")
  func rejectsLoneSurrogates() {
    expectError(#""\uD83D""#, #"lone surrogate '\uD83D' in string"#, line: 1, column: 2)
    expectError(#""ab\uD83Dx""#, #"lone surrogate '\uD83D' in string"#, line: 1, column: 4)
    expectError(#""\uD83D\n""#, #"lone surrogate '\uD83D' in string"#, line: 1, column: 2)
    expectError(#""\uD83D\u0041""#, #"lone surrogate '\uD83D' in string"#, line: 1, column: 2)
    expectError(#""\uD83D\uD83D""#, #"lone surrogate '\uD83D' in string"#, line: 1, column: 2)
    expectError(#""\uDE00""#, #"lone surrogate '\uDE00' in string"#, line: 1, column: 2)
    expectError(#""\uD83D\uDE0""#, #"invalid \u escape: expected 4 hex digits"#, line: 1, column: 13)
  }

  @Test("Rejects invalid escapes")
  func rejectsInvalidEscapes() {
    expectError(#""a\qb""#, #"invalid escape '\q' in string"#, line: 1, column: 3)
    expectError(#"{"k": "\x41"}"#, #"invalid escape '\x' in string"#, line: 1, column: 8)
    expectError(#""\U0041""#, #"invalid escape '\U' in string"#, line: 1, column: 2)
    expectError("\"\\\u{1}\"", #"invalid escape '\U+0001' in string"#, line: 1, column: 2)
    expectError(#""\u00G1""#, #"invalid \u escape: expected 4 hex digits"#, line: 1, column: 6)
    expectError(#""\u""#, #"invalid \u escape: expected 4 hex digits"#, line: 1, column: 4)
  }

  @Test("Rejects unescaped control characters in strings")
  func rejectsUnescapedControlCharactersInStrings() throws {
    expectError("\"a\nb\"", "unescaped control character U+000A in string", line: 1, column: 3)
    expectError("[\"ok\",\n \"a\tb\"]", "unescaped control character U+0009 in string", line: 2, column: 4)
    expectError("\"\u{0}\"", "unescaped control character U+0000 in string", line: 1, column: 2)
    expectError("\"\\n\u{1F}\"", "unescaped control character U+001F in string", line: 1, column: 4)
    #expect(try JSONValue.parse("\"\u{7F}\"") == .string("\u{7F}"))  // DEL is not a control character in JSON
  }

  @Test("Accepts well-formed multi-byte UTF-8")
  func acceptsWellFormedMultiByteUTF8() throws {
    let text = "\"é€😀 中文 \u{10FFFF}\""
    #expect(try JSONValue.parse(text) == .string("é€😀 中文 \u{10FFFF}"))
    #expect(try JSONValue.parse("\"é\\n€\"") == .string("é\n€"))
  }

  @Test("Rejects ill-formed UTF-8")
  func rejectsIllFormedUTF8() {
    let quote: UInt8 = 0x22
    expectError([quote, 0xFF, quote], "invalid UTF-8 byte 0xFF", line: 1, column: 2)
    expectError([quote, 0x80, quote], "invalid UTF-8 byte 0x80", line: 1, column: 2)
    expectError([quote, 0xC0, 0xAF, quote], "invalid UTF-8 byte 0xC0", line: 1, column: 2)  // overlong '/'
    expectError([quote, 0xE0, 0x80, 0xAF, quote], "invalid UTF-8 byte 0x80", line: 1, column: 3)  // overlong
    expectError([quote, 0xED, 0xA0, 0x80, quote], "invalid UTF-8 byte 0xA0", line: 1, column: 3)  // surrogate
    expectError([quote, 0xF4, 0x90, 0x80, 0x80, quote], "invalid UTF-8 byte 0x90", line: 1, column: 3)  // > U+10FFFF
    expectError([quote, 0x61, 0xC3, quote], "invalid UTF-8 byte 0x22", line: 1, column: 4)  // truncated
    expectError([quote, 0xE2, 0x82], "unexpected end of input inside a UTF-8 sequence", line: 1, column: 4)
    expectError([quote, 0x5C, 0x6E, 0xC3, 0x28, quote], "invalid UTF-8 byte 0x28", line: 1, column: 5)
  }

  @Test("Parses a 1 MB string")
  func parsesA1MBString() throws {
    let plain = String(repeating: "abcdéfgh", count: 116_509)  // 1,048,581 bytes
    #expect(plain.utf8.count > 1_000_000)
    #expect(try JSONValue.parse("\"\(plain)\"") == .string(plain))

    let escapedSource = String(repeating: "line \"one\"\n\ttab\\ \u{1F600}", count: 40_000)
    let escaped =
      escapedSource
      .replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
      .replacingOccurrences(of: "\t", with: "\\t")
    #expect(escaped.utf8.count > 1_000_000)
    #expect(try JSONValue.parse("[\"\(escaped)\"]") == [.string(escapedSource)])
  }

  @Test("Parses short strings of every length, repeated and distinct")
  func parsesShortStringsOfEveryLength() throws {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzé😀")
    for length in 0...24 {
      let strings = (0..<40).map { variant in
        String((0..<length).map { alphabet[($0 * 7 + variant) % alphabet.count] })
      }
      // Each string appears several times, so the short-string cache hits and misses.
      let expected = JSONValue.array((strings + strings + strings.reversed()).map { .string($0) })
      #expect(try JSONValue.parse(expected.serialized(options: [])) == expected, "length \(length)")
      // A string ending right at the end of the input.
      #expect(try JSONValue.parse("\"\(strings[3])\"") == .string(strings[3]), "length \(length)")
      #expect(try JSONValue.parse(" \"\(strings[5])\"\n") == .string(strings[5]), "length \(length)")
    }

    var object = JSONObject()
    for index in 0..<5_000 {
      object.members.append(JSONMember(key: "k\(index)", value: .number(Double(index))))
    }
    let parsed = try #require(try JSONValue.parse(JSONValue.object(object).serialized(options: [])).objectValue)
    #expect(parsed == object)
    #expect(parsed["k4999"] == 4999)
  }

  // MARK: - Nesting

  @Test("Accepts 512 levels of nesting")
  func accepts512LevelsOfNesting() throws {
    let arrays = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    var value = try JSONValue.parse(arrays)
    var depth = 1
    while let inner = value.arrayValue?.first {
      value = inner
      depth += 1
    }
    #expect(depth == 512)
    #expect(value == .array([]))

    let objects = String(repeating: #"{"a":"#, count: 511) + "{}" + String(repeating: "}", count: 511)
    #expect(try JSONValue.parse(objects).objectValue?["a"]?.objectValue?.count == 1)

    let mixed = String(repeating: #"[{"k":"#, count: 256) + "1" + String(repeating: "}]", count: 256)
    #expect(try JSONValue.parse(mixed).arrayValue?.count == 1)
  }

  @Test("Rejects 513 levels of nesting")
  func rejects513LevelsOfNesting() {
    expectError(
      String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
      "nesting deeper than 512 levels", line: 1, column: 513)
    expectError(
      String(repeating: #"{"a":"#, count: 512) + "{}" + String(repeating: "}", count: 512),
      "nesting deeper than 512 levels", line: 1, column: 512 * 5 + 1)
    expectError(
      "\n" + String(repeating: #"[{"k":"#, count: 257) + "1" + String(repeating: "}]", count: 257),
      "nesting deeper than 512 levels", line: 2, column: 256 * 6 + 1)
    // Far deeper input fails fast instead of overflowing the stack.
    expectError(String(repeating: "[", count: 1_000_000), "nesting deeper than 512 levels", line: 1, column: 513)
  }

  // MARK: - Value API

  @Test("Reads values through typed accessors")
  func readsValuesThroughTypedAccessors() {
    let object: JSONValue = ["a": 1]
    #expect(object.objectValue?["a"] == 1)
    #expect(object.arrayValue == nil)
    #expect(JSONValue.array([1]).arrayValue == [1])
    #expect(JSONValue.string("s").stringValue == "s")
    #expect(JSONValue.number(2.5).numberValue == 2.5)
    #expect(JSONValue.bool(true).boolValue == true)
    #expect(JSONValue.null.isNull)
    #expect(!JSONValue.bool(false).isNull)
    #expect(JSONValue.string("s").numberValue == nil)
    let names = [JSONValue.null, true, 1, "s", [], [:]].map(\.typeName)
    #expect(names == ["null", "bool", "number", "string", "array", "object"])
  }

  @Test("Edits objects through the key subscript")
  func editsObjectsThroughTheKeySubscript() {
    var object: JSONObject = ["a": 1, "b": 2]
    object["a"] = 10
    #expect(object.members == [JSONMember(key: "a", value: 10), JSONMember(key: "b", value: 2)])
    object["c"] = nil
    object["c"] = "new"
    #expect(object.keys == ["a", "b", "c"])
    object["b"] = nil
    #expect(object.keys == ["a", "c"])

    var duplicates = JSONObject([
      JSONMember(key: "k", value: 1), JSONMember(key: "x", value: 0), JSONMember(key: "k", value: 2)
    ])
    duplicates["k"] = 3
    #expect(duplicates.members == [JSONMember(key: "x", value: 0), JSONMember(key: "k", value: 3)])
    duplicates.members.append(JSONMember(key: "x", value: 9))
    duplicates["x"] = nil
    #expect(duplicates.keys == ["k"])
  }

  @Test("Treats an object as a random-access collection of members")
  func treatsAnObjectAsARandomAccessCollectionOfMembers() {
    let object: JSONObject = ["a": 1, "b": true]
    #expect(object.count == 2)
    #expect(object.first == JSONMember(key: "a", value: 1))
    #expect(object[1].value == true)
    #expect(object.map(\.key) == ["a", "b"])
    #expect(JSONObject().isEmpty)
    #expect(JSONObject() == [:])
    let literal: JSONValue = [nil, false, 3, 2.5, "s", [1], ["k": "v"]]
    #expect(
      literal
        == .array([
          .null, .bool(false), .number(3), .number(2.5), .string("s"), .array([.number(1)]),
          .object(JSONObject([JSONMember(key: "k", value: .string("v"))]))
        ]))
  }
}
