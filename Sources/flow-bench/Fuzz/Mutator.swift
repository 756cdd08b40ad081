import FlowTestSupport
/// Mutates inputs the way a coverage-blind fuzzer does: bit flips, byte inserts and deletes,
/// duplicated and spliced ranges, truncation, and "interesting" tokens (numbers that fit no
/// integer, non-finite and denormal spellings, deep nesting, lone surrogates, formula syntax).
/// `SeededRandom` drives it: the same seed gives the same campaign.
struct Mutator {
  /// Tokens that broke parsers before, or sit on a boundary.
  static let tokens: [String] = [
    "1e300", "-1e300", "-0", "-0.0", "0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551616", "1e999999999", "-1e999999999", "1e-999999", "4.9e-324",
    "2.2250738585072014e-308", "1.7976931348623157e308", "9007199254740993", "4294967296", "2147483648", "NaN",
    "Infinity", "-Infinity", "1.", ".5", "1e", "1e+", "00", "-", "+1",
    "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\u0000\"", "\"\u{7F}\"", "\"\\\"", "\"é\"", "\"\u{1F600}\"",
    "[", "]", "{", "}", ",", ":", "\"", "null", "true", "false", "\"\"", "{}", "[]",
    String(repeating: "[", count: 600), String(repeating: "{\"a\":", count: 600), String(repeating: "[", count: 511),
    "{\"id\": \"x\", \"data\": {\"kind\": \"number\"}}", "\"formulaVersion\"",
    "\"flowRuntime\": {\"formatVersion\": 1e300}",
    "\"zIndex\": 1e300", "\"handles\": []", "\"sourceHandleID\": null",
    "(", ")", "^", "%", "/0", "*", "-", "sqrt(", "min(", "max(", "round(", "pi", "e", "x", ",",
    String(repeating: "(", count: 5_000),
    String(repeating: "-", count: 5_000), String(repeating: "x+", count: 2_000) + "x", "1e308*1e308", "0/0", "2^1024"
  ]

  /// Whole JSON values to put in place of a member's value (keeps the document well formed, so
  /// the validator and the engine get exercised, not only the parser).
  static let values: [String] = [
    "1e300", "-1e300", "-0", "0", "1", "2", "-1", "0.5", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "4503599627370497", "1.7976931348623157e308", "4.9e-324", "null", "true", "false",
    "\"\"", "\"x\"", "\"a\"", "\"b\"", "\"r\"", "\"in\"", "\"value\"", "\"result\"", "\"number\"", "\"add\"",
    "\"divide\"", "\"subtract\"", "\"readCSV\"", "\"writeCSV\"", "\"readJSON\"", "\"text\"", "\"format\"",
    "\"toNumber\"", "\"sort\"", "\"limit\"", "\"join\"", "\"groupBy\"", "\"reduce\"", "\"column\"", "\"select\"",
    "\"rowCount\"", "\"/etc/passwd\"", "\"../x.csv\"", "\"multiply\"", "\"expression\"", "\"group\"", "\"target\"",
    "\"source\"",
    "\"pi * r^2\"", "\"a / 0\"", "\"x % 0\"", "\"2^1024\"", "\"sqrt(-1)\"", "\"\\ud800\"", "\"e1\"", "\"f\"", "\"d\"",
    "[]", "{}", "[0, 0]", "[1e300, -1e300]",
    "{\"kind\": \"expression\", \"params\": {\"formula\": \"a+b\", \"a\": 1e300}}",
    "{\"kind\": \"number\", \"params\": {\"value\": 9223372036854775808}}", "{\"normal\": {}}",
    "{\"draft\": {\"_0\": \"valid\"}}", "[{\"id\": \"a\", \"type\": \"target\"}]", "{\"point\": {\"radius\": 1e300}}"
  ]

  /// Bytes worth planting at random positions.
  static let bytes: [UInt8] = Array("{}[]\",:0123456789eE.-+ \\nult".utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xFF]

  var random: SeededRandom
  /// The largest input produced.
  var maximumSize = 256 << 10

  /// `input` after one to four mutations; `corpus` supplies splice partners.
  mutating func mutate(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
    var data = input
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      // Half the time a whole member value is replaced, keeping the JSON well formed.
      if Bool.random(using: &random) { replaceValue(&data) } else { mutateOnce(&data, corpus: corpus) }
    }
    if data.count > maximumSize { data.removeLast(data.count - maximumSize) }
    return data
  }

  private mutating func position(in data: [UInt8]) -> Int { Int.random(in: 0...data.count, using: &random) }

  private mutating func mutateOnce(_ data: inout [UInt8], corpus: [[UInt8]]) {
    switch Int.random(in: 0..<9, using: &random) {
    case 0 where !data.isEmpty:  // flip a bit
      let index = Int.random(in: 0..<data.count, using: &random)
      data[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 1 where !data.isEmpty:  // plant a byte
      data[Int.random(in: 0..<data.count, using: &random)] = Self.bytes.randomElement(using: &random)!
    case 2:  // insert a byte
      data.insert(Self.bytes.randomElement(using: &random)!, at: position(in: data))
    case 3 where !data.isEmpty:  // delete a range
      let start = Int.random(in: 0..<data.count, using: &random)
      let length = Int.random(in: 1...min(16, data.count - start), using: &random)
      data.removeSubrange(start..<(start + length))
    case 4 where !data.isEmpty:  // duplicate a range elsewhere
      let start = Int.random(in: 0..<data.count, using: &random)
      let length = Int.random(in: 1...min(64, data.count - start), using: &random)
      let piece = Array(data[start..<(start + length)])
      data.insert(contentsOf: piece, at: position(in: data))
    case 5:  // splice with another corpus entry
      guard let other = corpus.randomElement(using: &random), !other.isEmpty else { return }
      let cut = position(in: data)
      let from = Int.random(in: 0..<other.count, using: &random)
      data = Array(data[..<cut]) + other[from...]
    case 6 where !data.isEmpty:  // truncate
      data.removeLast(Int.random(in: 1...data.count, using: &random))
    case 7:  // replace a run of digits (or insert) with an interesting token
      let token = Array(Self.tokens.randomElement(using: &random)!.utf8)
      if let run = digitRun(in: data) {
        data.replaceSubrange(run, with: token)
      } else {
        data.insert(contentsOf: token, at: position(in: data))
      }
    default:  // insert an interesting token
      data.insert(contentsOf: Array(Self.tokens.randomElement(using: &random)!.utf8), at: position(in: data))
    }
  }

  /// Replaces the scalar value after a random `:` (a number, string, `true`, `false`, `null`)
  /// with one of `values`.
  private mutating func replaceValue(_ data: inout [UInt8]) {
    guard !data.isEmpty else { return }
    let from = Int.random(in: 0..<data.count, using: &random)
    guard let colon = data[from...].firstIndex(of: UInt8(ascii: ":")) ?? data.firstIndex(of: UInt8(ascii: ":")) else {
      return
    }
    var start = colon + 1
    while start < data.count, data[start] == 0x20 || data[start] == 0x0A || data[start] == 0x09 || data[start] == 0x0D {
      start += 1
    }
    guard start < data.count else { return }
    var end = start
    if data[start] == UInt8(ascii: "\"") {
      end += 1
      while end < data.count, data[end] != UInt8(ascii: "\"") { end += data[end] == UInt8(ascii: "\\") ? 2 : 1 }
      end = min(end + 1, data.count)
    } else {
      while end < data.count, !Array(",}] \n\t\r".utf8).contains(data[end]) { end += 1 }
    }
    // Leave objects and arrays whole: only scalars are replaced.
    guard end > start, data[start] != UInt8(ascii: "{"), data[start] != UInt8(ascii: "[") else { return }
    data.replaceSubrange(start..<end, with: Array(Self.values.randomElement(using: &random)!.utf8))
  }

  /// A random run of ASCII digits (with sign, point and exponent), if the data has one.
  private mutating func digitRun(in data: [UInt8]) -> Range<Int>? {
    guard !data.isEmpty else { return nil }
    let start = Int.random(in: 0..<data.count, using: &random)
    guard let first = data[start...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return nil }
    var end = first
    while end < data.count,
      (0x30...0x39).contains(data[end]) || data[end] == 0x2E || data[end] | 0x20 == 0x65
        || data[end] == 0x2D || data[end] == 0x2B
    { end += 1 }
    return first..<end
  }
}
