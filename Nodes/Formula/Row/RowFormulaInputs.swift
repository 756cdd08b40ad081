import FlowRuntime

/// `@name` in a row formula: the node's scalar input `name` (a number, integer, string, bool or
/// null), a constant for every row.
///
/// A formula's `@names` become input ports of its node (after the table), which an edge, or
/// else a param of the same name, sets. The formula is parsed with each `@name` read as
/// `null` (so a syntax error is still a validation error), and compiled, when the node runs,
/// with the inputs' values written in as literals: the text is rebuilt only when the values
/// change (see `RowFormulaInputs.Binder`).
///
/// Scanning skips `"strings"` (with their `\"` escapes) and `` `quoted names` ``, so an `@`
/// inside them stays text. It is one pass over the formula's bytes.
struct RowFormulaInputs: Sendable, Hashable {
  /// The distinct `@names`, in order of first appearance.
  let names: [String]
  /// The formula cut at each `@name`: `pieces[0] @names[k0] pieces[1] @names[k1] …`.
  private let pieces: [String]
  /// The index into `names` of each `@name` occurrence, between consecutive pieces.
  private let occurrences: [Int]

  /// The most distinct `@names` one formula may use.
  static let limit = 64

  init(_ text: String) {
    var names: [String] = []
    var pieces: [String] = []
    var occurrences: [Int] = []
    let bytes = Array(text.utf8)
    var position = 0
    var pieceStart = 0
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") {
        position += 1
        while position < bytes.count, bytes[position] != byte {
          position += bytes[position] == UInt8(ascii: "\\") && byte == UInt8(ascii: "\"") ? 2 : 1
        }
        position += 1
        continue
      }
      guard byte == UInt8(ascii: "@"), position + 1 < bytes.count, Self.isStart(bytes[position + 1]) else {
        position += 1
        continue
      }
      var end = position + 2
      while end < bytes.count, Self.isStart(bytes[end]) || (bytes[end] >= 0x30 && bytes[end] <= 0x39) { end += 1 }
      let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
      pieces.append(String(decoding: bytes[pieceStart..<position], as: UTF8.self))
      if let index = names.firstIndex(of: name) {
        occurrences.append(index)
      } else {
        occurrences.append(names.count)
        names.append(name)
      }
      position = end
      pieceStart = end
    }
    pieces.append(String(decoding: bytes[min(pieceStart, bytes.count)...], as: UTF8.self))
    self.names = names
    self.pieces = pieces
    self.occurrences = occurrences
  }

  private static func isStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
  }

  /// The formula with each `@name` replaced by `literals[index of name]`.
  func text(with literals: [String]) -> String {
    var text = pieces[0]
    for (index, occurrence) in occurrences.enumerated() {
      text += literals[occurrence]
      text += pieces[index + 1]
    }
    return text
  }

  /// The formula with every `@name` read as `null`: what is parsed when the node is configured.
  var placeholderText: String { text(with: names.map { _ in "null" }) }

  /// The input ports of the `@names` (after the node's own), each `null` until set.
  var ports: [InputPort] { names.map { InputPort($0, .any, default: .null) } }

  /// The row-formula literal of a scalar input's value.
  ///
  /// - Throws: `NodeError` naming the input when it is null (not connected, no param sets it)
  ///   or not a scalar.
  static func literal(_ value: Value, input name: String) throws -> String {
    switch value {
    case .integer(let n): return n < 0 ? "(\(n))" : String(n)
    case .number(let x):
      guard x.isFinite else { throw NodeError("input '\(name)' is \(value), which a row formula cannot write") }
      return x < 0 ? "(\(x))" : "\(x)"
    case .bool(let flag): return flag ? "true" : "false"
    case .string(let text):
      return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        + "\""
    case .null:
      throw NodeError(
        "input '\(name)' is not connected (connect it, or set param '\(name)'), and '@\(name)' needs its value")
    default:
      throw NodeError("input '\(name)' is \(value.typeName); '@\(name)' takes a number, integer, string or bool")
    }
  }
}
