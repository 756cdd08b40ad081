import Testing

import FlowGraph
import FlowTestSupport

/// On random documents (nested arrays and objects, integers anywhere in `Int64` with the extremes
/// favoured, doubles of every magnitude, strings with escapes): writing and reading back gives
/// the same value with integers exact, and `parse → write → parse` is the identity.
@Suite struct JSONRoundTripPropertyTests {
  /// A random value; `depth` bounds the nesting.
  static func randomValue(_ random: inout SeededRandom, depth: Int) -> JSONValue {
    let choice = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random)
    switch choice {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .integer(randomInteger(&random))
    case 3: return .number(randomDouble(&random))
    case 4: return .string(randomString(&random))
    case 5: return .integer(Int64.random(in: -1000...1000, using: &random))
    case 6, 7:
      return .array((0..<Int.random(in: 0..<5, using: &random)).map { _ in randomValue(&random, depth: depth - 1) })
    default:
      let members = (0..<Int.random(in: 0..<5, using: &random)).map { _ in
        JSONMember(key: randomString(&random), value: randomValue(&random, depth: depth - 1))
      }
      return .object(JSONObject(members))
    }
  }

  /// Extremes, values around 2^53 and random values of every width.
  static func randomInteger(_ random: inout SeededRandom) -> Int64 {
    let twoTo53: Int64 = 1 << 53
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return [.max, .min, .max - 1, .min + 1, 0, -1][Int.random(in: 0..<6, using: &random)]
    case 1: return twoTo53 + Int64.random(in: -3...3, using: &random)
    case 2: return -twoTo53 + Int64.random(in: -3...3, using: &random)
    case 3: return Int64(bitPattern: random.next())
    default: return Int64(bitPattern: random.next()) >> Int64.random(in: 0..<63, using: &random)
    }
  }

  /// A finite double: whole or not, tiny or huge, `-0.0` now and then.
  static func randomDouble(_ random: inout SeededRandom) -> Double {
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      return [-0.0, 0.5, 1e300, -2.2250738585072014e-308, 9_223_372_036_854_775_808, 1e22][
        Int.random(in: 0..<6, using: &random)]
    case 1: return Double(Int64.random(in: -1_000_000...1_000_000, using: &random))  // whole: written as an integer
    case 2: return Double.random(in: -1...1, using: &random)
    default:
      let bits = random.next()
      let value = Double(bitPattern: bits)
      return value.isFinite ? value : Double(bitPattern: bits & 0x800F_FFFF_FFFF_FFFF)
    }
  }

  static let pieces = ["a", "é", "東", "😀", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", " ", "key", "0"]

  static func randomString(_ random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0..<6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
  }

  /// What `value` reads back as: a whole `Double` below 2^53 in magnitude is written without a
  /// fraction, so it reads back as that integer (`-0.0` stays a `Double`).
  static func expected(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let x)
    where x.magnitude < 9_007_199_254_740_992 && x.rounded(.towardZero) == x && !(x == 0 && x.sign == .minus):
      return .integer(Int64(x))
    case .array(let items): return .array(items.map(expected))
    case .object(let object):
      return .object(JSONObject(object.members.map { JSONMember(key: $0.key, value: expected($0.value)) }))
    default: return value
    }
  }

  @Test(arguments: 0..<300)
  func writingAndReadingBackKeepsIntegersExact(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let value = Self.randomValue(&random, depth: 4)
    for options: JSONValue.WritingOptions in [[], [.prettyPrinted]] {
      let text = value.serialized(options: options)
      let parsed = try JSONValue.parse(text)
      #expect(parsed.isIdentical(to: Self.expected(value)), "\(text)")
      // parse → write → parse is the identity, and the second write is the first.
      let written = parsed.serialized(options: options)
      #expect(written == text)
      #expect(try JSONValue.parse(Array(written.utf8)).isIdentical(to: parsed))
    }
  }
}
