import Foundation
import Testing

@testable import FlowGraph
import FlowTestSupport

/// Builds random JSON values: every type, awkward numbers and strings,
/// duplicate keys, nesting up to a few levels.
private struct RandomJSON {
  var rng: SeededRandom

  init(seed: UInt64) {
    rng = SeededRandom(seed: seed)
  }

  mutating func value(depth: Int = 0) -> JSONValue {
    let kind = depth >= 5 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<7, using: &rng)
    switch kind {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .number(number())
    case 3: return .string(string())
    case 4:
      var elements: [JSONValue] = []
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        elements.append(value(depth: depth + 1))
      }
      return .array(elements)
    default:
      var members: [JSONMember] = []
      for _ in 0..<Int.random(in: 0...6, using: &rng) {
        // A small key pool makes duplicate keys likely.
        let key = Bool.random(using: &rng) ? ["id", "a", "b", "é", "Z", ""].randomElement(using: &rng)! : string()
        members.append(JSONMember(key: key, value: value(depth: depth + 1)))
      }
      return .object(JSONObject(members))
    }
  }

  mutating func number() -> Double {
    switch Int.random(in: 0..<7, using: &rng) {
    case 0:
      return Double(Int.random(in: -1000...1000, using: &rng))
    case 1:
      return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng))
    case 2:
      return Double.random(in: -1...1, using: &rng)
    case 3:
      return Double(Int.random(in: -999_999...999_999, using: &rng)) / 1000
    case 4:
      let bits = Double(bitPattern: rng.next())
      return bits.isFinite ? bits : 0
    case 5:
      return Double.random(in: -1e6...1e6, using: &rng) * pow(10, Double(Int.random(in: -300...300, using: &rng)))
    default:
      let specials: [Double] = [
        0, -0.0, 1, -1, 0.1, 1e-7, 1e21, 1e308, -1e308, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        .leastNormalMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992, 18_014_398_509_481_984
      ]
      return specials.randomElement(using: &rng)!
    }
  }

  mutating func string() -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...(Bool.random(using: &rng) ? 12 : 40), using: &rng) {
      let range: ClosedRange<UInt32>
      switch Int.random(in: 0..<7, using: &rng) {
      case 0: range = 0x00...0x1F  // control characters
      case 1: range = 0x20...0x7E
      case 2: range = 0x22...0x22  // quote
      case 3: range = 0x5C...0x5C  // backslash
      case 4: range = 0xA0...0x7FF
      case 5: range = 0x3000...0xD7FF
      default: range = 0x1F300...0x1FAFF  // astral: surrogate pairs in UTF-16
      }
      scalars.append(Unicode.Scalar(UInt32.random(in: range, using: &rng))!)
    }
    return String(scalars)
  }
}

/// `value` with every object's members sorted the way `.sortedKeys` writes them.
private func sortedByKey(_ value: JSONValue) -> JSONValue {
  switch value {
  case .array(let elements):
    return .array(elements.map(sortedByKey))
  case .object(let object):
    let members = object.members.sorted { $0.key < $1.key }
    return .object(JSONObject(members.map { JSONMember(key: $0.key, value: sortedByKey($0.value)) }))
  default:
    return value
  }
}

@Suite struct JSONWriterTests {
  private let document: JSONValue = [
    "name": "add",
    "position": [1.5, 2],
    "empty": [],
    "none": [:],
    "flag": false,
    "nested": ["b": nil, "a": [1, ["x": "y"]]]
  ]

  @Test("Pretty-prints with two-space indentation in JSONEncoder style")
  func prettyPrintsInJSONEncoderStyle() {
    let expected = """
      {
        "empty" : [],
        "flag" : false,
        "name" : "add",
        "nested" : {
          "a" : [
            1,
            {
              "x" : "y"
            }
          ],
          "b" : null
        },
        "none" : {},
        "position" : [
          1.5,
          2
        ]
      }
      """
    #expect(document.serialized() == expected)
    #expect(document.serialized(options: [.prettyPrinted, .sortedKeys]) == expected)
  }

  @Test("Matches Foundation's JSONEncoder pretty output for non-empty containers")
  func matchesJSONEncoderPrettyOutput() throws {
    // Foundation on Linux writes an empty container across lines ("[\n\n  ]"); we write "[]".
    let value: JSONValue = [
      "name": "add", "position": [1.5, 2], "flag": false, "nested": ["b": nil, "a": [1, ["x": "y/z"]]]
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let foundation = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(value.serialized() == foundation)
  }

  @Test("Writes compact output without whitespace")
  func writesCompactOutput() {
    #expect(
      document.serialized(options: [])
        == #"{"name":"add","position":[1.5,2],"empty":[],"none":{},"flag":false,"nested":{"b":null,"a":[1,{"x":"y"}]}}"#
    )
    #expect(
      document.serialized(options: .sortedKeys)
        == #"{"empty":[],"flag":false,"name":"add","nested":{"a":[1,{"x":"y"}],"b":null},"none":{},"position":[1.5,2]}"#
    )
  }

  @Test("Keeps document order unless keys are sorted")
  func keepsDocumentOrderUnlessSorted() {
    let object: JSONValue = ["b": 1, "a": 2, "C": 3, "é": 4, "aa": 5]
    #expect(object.serialized(options: []) == #"{"b":1,"a":2,"C":3,"é":4,"aa":5}"#)
    #expect(object.serialized(options: .sortedKeys) == #"{"C":3,"a":2,"aa":5,"b":1,"é":4}"#)
    #expect(
      object.serialized(options: .prettyPrinted)
        == "{\n  \"b\" : 1,\n  \"a\" : 2,\n  \"C\" : 3,\n  \"é\" : 4,\n  \"aa\" : 5\n}")
  }

  @Test("Sorts duplicate keys stably so the last one still wins")
  func sortsDuplicateKeysStably() throws {
    let object = JSONValue.object(
      JSONObject([
        JSONMember(key: "k", value: 1), JSONMember(key: "a", value: 0), JSONMember(key: "k", value: 2)
      ]))
    let text = object.serialized(options: .sortedKeys)
    #expect(text == #"{"a":0,"k":1,"k":2}"#)
    #expect(try JSONValue.parse(text).objectValue?["k"] == 2)
  }

  @Test("Writes top-level scalars and empty containers")
  func writesScalarsAndEmptyContainers() {
    #expect(JSONValue.null.serialized() == "null")
    #expect(JSONValue.bool(true).serialized() == "true")
    #expect(JSONValue.bool(false).serialized(options: []) == "false")
    #expect(JSONValue.number(3).serialized() == "3")
    #expect(JSONValue.string("x").serialized() == "\"x\"")
    #expect(JSONValue.array([]).serialized() == "[]")
    #expect(JSONValue.object(JSONObject()).serialized() == "{}")
    #expect(JSONValue.array([[], [:], [[]]]).serialized() == "[\n  [],\n  {},\n  [\n    []\n  ]\n]")
    #expect(JSONValue.array([[], [:], [[]]]).serialized(options: []) == "[[],{},[[]]]")
  }

  @Test("Writes integral numbers without a fraction and others in shortest form")
  func writesNumbers() throws {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "-0"), (2, "2"), (-3, "-3"), (1_000_000, "1000000"), (123_456_789, "123456789"),
      (9_007_199_254_740_991, "9007199254740991"), (-9_007_199_254_740_991, "-9007199254740991"),
      (9_007_199_254_740_992, "9007199254740992.0"), (1e16, "1e+16"), (1.5, "1.5"), (-2.25, "-2.25"),
      (0.1, "0.1"), (1e-7, "1e-07"), (1e300, "1e+300"), (.leastNonzeroMagnitude, "5e-324"),
      (-.greatestFiniteMagnitude, "-1.7976931348623157e+308"), (0.30000000000000004, "0.30000000000000004")
    ]
    for (number, text) in cases {
      #expect(JSONValue.number(number).serialized() == text, "\(number)")
      #expect(try JSONValue.parse(text) == .number(number), "\(text)")
    }
    #expect(try JSONValue.parse("-0").serialized() == "-0")
  }

  @Test("Writes non-finite numbers as strings so the output stays valid JSON")
  func writesNonFiniteNumbersAsStrings() throws {
    let value: JSONValue = [.number(.nan), .number(.infinity), .number(-.infinity)]
    let text = value.serialized(options: [])
    #expect(text == #"["nan","inf","-inf"]"#)
    #expect(try JSONValue.parse(text) == ["nan", "inf", "-inf"])
  }

  @Test("Escapes quotes, backslashes and control characters only")
  func escapesStrings() throws {
    let string = "a\"b\\c/d\n\r\t\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F}é€😀"
    let text = JSONValue.string(string).serialized()
    #expect(text == "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0000\\u0001\\u001f\u{7F}é€😀\"")
    #expect(try JSONValue.parse(text) == .string(string))
    #expect(JSONValue.object(["k\"\n": 1]).serialized(options: []) == #"{"k\"\n":1}"#)
    #expect(JSONValue.string("").serialized() == "\"\"")
  }

  @Test("Escapes special characters at every position of strings of every length")
  func escapesAtEveryPosition() throws {
    let specials: [(Character, String)] = [
      ("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{1}", "\\u0001"), ("\u{1F}", "\\u001f"), ("é", "é"),
      ("\u{7F}", "\u{7F}"), ("/", "/")
    ]
    for length in 1...24 {
      for position in 0..<length {
        for (special, escaped) in specials {
          let prefix = String(repeating: "a", count: position)
          let suffix = String(repeating: "z", count: length - position - 1)
          let string = prefix + String(special) + suffix
          let text = JSONValue.string(string).serialized(options: [])
          #expect(text == "\"" + prefix + escaped + suffix + "\"", "\(length) \(position)")
          #expect(try JSONValue.parse(text) == .string(string))
        }
      }
    }
    let allControls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
    #expect(try JSONValue.parse(JSONValue.string(allControls).serialized()) == .string(allControls))
  }

  @Test("Returns the same UTF-8 from serializedBytes and serialized")
  func serializedBytesMatchesSerialized() {
    let value: JSONValue = ["é": ["😀", 1.25, nil]]
    for options: JSONValue.WritingOptions in [[], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys]] {
      #expect(value.serializedBytes(options: options) == Array(value.serialized(options: options).utf8))
    }
    #expect(value.serializedBytes() == Array(value.serialized().utf8))
  }

  @Test("Writes 512 levels of nesting that parse back")
  func writesDeepNesting() throws {
    var value: JSONValue = ["leaf": true]
    for level in 1..<512 {
      value = level.isMultiple(of: 2) ? ["k": value] : [value]
    }
    let compact = value.serialized(options: [])
    #expect(try JSONValue.parse(compact) == value)
    let pretty = value.serialized()
    #expect(pretty.split(separator: "\n").last == "]")
    #expect(try JSONValue.parse(pretty) == value)
  }

  @Test(
    "Round-trips random values through every option set",
    arguments: [
      JSONValue.WritingOptions(), .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys]
    ])
  func roundTripsRandomValues(options: JSONValue.WritingOptions) throws {
    for seed in UInt64(0)..<300 {
      var generator = RandomJSON(seed: seed)
      let value = generator.value()
      let text = value.serialized(options: options)
      let parsed = try JSONValue.parse(text)
      let expected = options.contains(.sortedKeys) ? sortedByKey(value) : value
      #expect(parsed == expected, "seed \(seed): \(text)")
      // Writing is deterministic: the parsed value writes the same text.
      #expect(parsed.serialized(options: options) == text, "seed \(seed)")
    }
  }
}

@Suite struct JSONValueCodableTests {
  private struct Node: Codable, Equatable {
    var id: String
    var data: JSONValue
    var extra: JSONValue?
  }

  @Test("Round-trips through JSONEncoder and JSONDecoder")
  func roundTripsThroughFoundationCoders() throws {
    let value: JSONValue = [
      "array": [1, 2.5, -0.125, "s", true, nil, [], [:]],
      "bool": false,
      "null": nil,
      "number": 1e-7,
      "object": ["inner": ["x": "é😀\n"]],
      "string": "quote \" slash / backslash \\"
    ]
    let encoded = try JSONEncoder().encode(value)
    let decoded = try JSONDecoder().decode(JSONValue.self, from: encoded)
    #expect(decoded == value)
    #expect(sortedByKey(try JSONValue.parse(encoded)) == decoded)

    for seed in UInt64(0)..<100 {
      var generator = RandomJSON(seed: seed)
      let random = generator.value()
      guard random.objectValue != nil || random.arrayValue != nil else { continue }
      let decodedRandom = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(random))
      #expect(decodedRandom == sortedByKey(deduplicated(random)), "seed \(seed)")
    }
  }

  @Test("Decodes the same value as the parser, with members sorted by key")
  func decodesLikeTheParser() throws {
    let text = #"{"z": 1, "a": [true, null, "x", 2.5e3, {"k": {}}], "m": -0}"#
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(decoded == sortedByKey(try JSONValue.parse(text)))
    #expect(decoded.objectValue?.keys == ["a", "m", "z"])
  }

  @Test("Encodes and decodes as a property of another Codable type")
  func bridgesInsideCodableTypes() throws {
    let node = Node(id: "n1", data: ["kind": "add", "params": ["b": 2]], extra: nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(node)
    #expect(String(decoding: data, as: UTF8.self) == #"{"data":{"kind":"add","params":{"b":2}},"id":"n1"}"#)
    #expect(try JSONDecoder().decode(Node.self, from: data) == node)

    let withNull = try JSONDecoder().decode(Node.self, from: Data(#"{"id":"n2","data":null,"extra":[1]}"#.utf8))
    #expect(withNull == Node(id: "n2", data: .null, extra: [1]))
  }

  @Test("Encodes only the last member of duplicate keys")
  func encodesLastDuplicate() throws {
    let object = JSONValue.object(
      JSONObject([JSONMember(key: "a", value: 1), JSONMember(key: "b", value: 2), JSONMember(key: "a", value: 3)]))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(object), as: UTF8.self) == #"{"a":3,"b":2}"#)
  }

  @Test("Keeps booleans and numbers apart when decoding")
  func keepsBooleansAndNumbersApart() throws {
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data("[true, 1, 0, false, 1.0]".utf8))
    #expect(decoded == [.bool(true), .number(1), .number(0), .bool(false), .number(1)])
  }

  /// `value` with only the last member of each duplicated key, in place.
  private func deduplicated(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements):
      return .array(elements.map(deduplicated))
    case .object(let object):
      var result = JSONObject()
      for member in object {
        result[member.key] = deduplicated(member.value)
      }
      return .object(result)
    default:
      return value
    }
  }
}
