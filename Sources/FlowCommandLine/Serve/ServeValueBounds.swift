import FlowGraph
import FlowRuntime

/// Bounds on what `/state.json` says about a value that is not a table, so a response never
/// grows with the data: a long text, list or record is summarized in place.
///
/// - a text of more than `textBytes` UTF-8 bytes becomes `{"text": {"bytes": N, "head": …}}`
///   (its first `headBytes` bytes, cut at a character boundary);
/// - a list or record is written element by element while the value's budget (`valueBytes`,
///   counted as written) lasts; when it runs out, the list becomes
///   `{"list": {"count": N, "head": [what was written]}}` and the record
///   `{"record": {"count": N, "head": {…}}}`.
///
/// Invariant: one value's JSON holds at most about `valueBytes` bytes of text, however large or
/// deep the value; the work is proportional to what is written, not to the value's size.
enum ServeValueBounds {
  static let textBytes = 10_000
  static let headBytes = 1_000
  static let valueBytes = 64 * 1_024

  static func json(_ value: Value) -> JSONValue {
    var budget = valueBytes
    return json(value, budget: &budget)
  }

  /// A string cell of a table's head rows: its text, or the text summary past `textBytes`.
  static func cell(_ json: JSONValue) -> JSONValue {
    guard case .string(let text) = json, text.utf8.count > textBytes else { return json }
    return summary(text, head: headBytes)
  }

  static func json(_ value: Value, budget: inout Int) -> JSONValue {
    switch value {
    case .string(let text):
      let bytes = text.utf8.count
      if bytes <= min(textBytes, budget) {
        budget -= bytes + 2
        return .string(text)
      }
      let head = max(0, min(headBytes, budget))
      budget -= head + 40
      return summary(text, head: head)
    case .list(let items):
      var written: [JSONValue] = []
      for item in items {
        guard budget > 0 else { break }
        written.append(json(item, budget: &budget))
        budget -= 1
      }
      if written.count == items.count { return .array(written) }
      return .object(["list": .object(["count": .integer(Int64(items.count)), "head": .array(written)])])
    case .record(let record):
      var written: [JSONMember] = []
      for (key, member) in record.sorted(by: { $0.key < $1.key }) {
        guard budget > 0 else { break }
        budget -= key.utf8.count + 4
        written.append(JSONMember(key: key, value: json(member, budget: &budget)))
      }
      if written.count == record.count { return .object(JSONObject(written)) }
      return .object(["record": .object(["count": .integer(Int64(record.count)), "head": .object(JSONObject(written))])]
      )
    case .table:
      budget -= 1
      return ServeTables.json(value)
    default:
      budget -= 24
      return value.jsonValue
    }
  }

  /// `{"text": {"bytes": N, "head": at most `head` bytes, ending at a scalar boundary}}`.
  static func summary(_ text: String, head: Int) -> JSONValue {
    let scalars = text.unicodeScalars
    var end = scalars.startIndex
    var used = 0
    while end < scalars.endIndex {
      let size = scalars[end].utf8.count
      guard used + size <= head else { break }
      used += size
      end = scalars.index(after: end)
    }
    return .object([
      "text": .object(["bytes": .integer(Int64(text.utf8.count)), "head": .string(String(scalars[..<end]))])
    ])
  }
}
