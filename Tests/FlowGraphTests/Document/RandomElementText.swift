import FlowTestSupport

/// Random document text for `DirectElementDecodingTests`: mostly the common node and edge
/// shapes the direct scanner reads, with every kind of deviation it must hand to the generic
/// path (escapes, non-ASCII, unknown, rare and repeated keys, wrong types, nested params, every
/// number form, syntax errors), in random key order with random whitespace.
struct RandomElementText {
  var random: SeededRandom
  /// Whether this document may hold problems (wrong types, syntax errors); otherwise it is
  /// valid but for what a valid document may hold (escapes, unknown and repeated keys, …).
  let wild: Bool

  init(seed: UInt64) {
    random = SeededRandom(seed: seed)
    wild = random.next() % 2 == 0
  }

  /// `true` with probability `1 / n`.
  mutating func oneIn(_ n: UInt64) -> Bool { random.next() % n == 0 }

  /// `true` with probability `1 / n` in a wild document, never in another: for problems.
  mutating func rarely(_ n: UInt64) -> Bool { wild && oneIn(n) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

  /// Whitespace between tokens, usually none (the documents `flow` writes are compact).
  mutating func space() -> String {
    oneIn(3) ? pick([" ", "\n", "\t", "\r\n  ", "  "]) : ""
  }

  /// A string literal for an id: usually plain ASCII, sometimes escaped, non-ASCII or long.
  mutating func idText(_ prefix: String) -> String {
    let number = random.next() % 50
    if rarely(10) { return pick(["\"\(prefix)\(number)", "\"bad\\q\"", "\"\\uD800\"", "\"a\u{1}b\""]) }
    guard oneIn(6) else { return "\"\(prefix)\(number)\"" }
    return pick([
      "\"\(prefix)\\u0031\(number)\"", "\"caf\u{E9}\(number)\"", "\"a\\\"b\"", "\"tab\\tx\"", "\"\"",
      "\"\(prefix)-a-rather-long-identifier-\(number)\"", "\"\u{1F600}\"", "\"\(prefix)\\/\(number)\"",
      "\"x\u{7F}y\"", "\"\\uD83D\\uDE00\""
    ])
  }

  /// A number in one of the forms JSON allows, or sometimes a malformed one.
  mutating func numberText() -> String {
    if rarely(20) { return pick(["1e400", "01", "-", "1.", ".5", "1e", "+1", "0x10", "-a"]) }
    guard oneIn(3) else { return "\(Int(random.next() % 2_000) - 500)" }
    return pick([
      "0", "-0", "0.5", "-3.25", "1e3", "2.5E-2", "1E+2", "123456789012345678901234", "0.000001",
      "9007199254740993", "1.7976931348623157e308", "5e-324", "12.50", "-0.0", "1e-400", "0.1e1"
    ])
  }

  /// Any JSON value, nested at most `depth` levels.
  mutating func anyText(depth: Int = 2) -> String {
    switch random.next() % (depth > 0 ? 8 : 6) {
    case 0: return idText("s")
    case 1, 2: return numberText()
    case 3: return pick(["true", "false"])
    case 4: return "null"
    case 5: return "\"" + pick(["left", "x", "a longer string value, here", "\u{E9}t\u{E9}", "q\\nr"]) + "\""
    case 6:
      return "[" + (0..<Int(random.next() % 3)).map { _ in space() + anyText(depth: depth - 1) }.joined(separator: ",")
        + "]"
    default: return object((0..<Int(random.next() % 3)).map { _ in (pick(["k", "v", "k"]), anyText(depth: depth - 1)) })
    }
  }

  /// `{"key": value, …}` with random whitespace; the keys are written as given.
  mutating func object(_ members: [(String, String)]) -> String {
    var parts: [String] = []
    for (key, value) in members { parts.append(space() + "\"\(key)\"" + space() + ":" + space() + value + space()) }
    return "{" + parts.joined(separator: ",") + space() + "}"
  }

  /// Shuffles `members`, sometimes repeats one, sometimes adds an unknown key.
  mutating func arrange(_ members: [(String, String)]) -> [(String, String)] {
    var members = members
    if oneIn(8), let repeated = members.randomElement(using: &random) { members.append((repeated.0, repeated.1)) }
    if oneIn(10) { members.append((pick(["note", "width", "Id", "ID", "i\\u0064"]), anyText())) }
    if rarely(12), !members.isEmpty { members.remove(at: Int(random.next() % UInt64(members.count))) }
    members.shuffle(using: &random)
    return members
  }

  mutating func pair() -> String {
    guard rarely(8) else {
      return "[" + space() + numberText() + space() + "," + space() + numberText() + space() + "]"
    }
    return pick(["[1]", "[1, 2, 3]", "\"here\"", "[1, \"2\"]", "[]", "null", "[1 2]", "[1,]"])
  }

  mutating func params() -> String {
    if rarely(6) { return pick(["5", "[]", "\"p\"", "{\"a\": 1,}", "{\"a\" 1}"]) }
    if oneIn(6) { return pick(["null", "{}", "{\"a\": [1]}", "{\"a\": {\"b\": null}}", "{ }"]) }
    let names = ["value", "b", "name", "value", "long-parameter-name-here", "\u{E9}"]
    return object((0..<Int(random.next() % 4)).map { _ in (pick(names), oneIn(5) ? anyText() : anyText(depth: 0)) })
  }

  mutating func nodeText() -> String {
    if rarely(25) { return pick(["[1, 2]", "\"node\"", "7", "{}", "null", "{\"id\": \"a\",}", "{\"id\" \"a\"}"]) }
    var data: [(String, String)] = [
      ("kind", rarely(12) ? anyText(depth: 0) : "\"" + pick(["add", "source", "addmod", "number"]) + "\"")
    ]
    if !oneIn(3) { data.append(("params", params())) }
    if oneIn(6) { data.append(("label", rarely(3) ? anyText(depth: 0) : "\"a label\"")) }
    var members: [(String, String)] = [("id", rarely(15) ? anyText(depth: 0) : idText("n"))]
    members.append(("data", rarely(15) ? anyText() : object(arrange(data))))
    if !oneIn(4) { members.append(("position", pair())) }
    if oneIn(3) { members.append(("size", pair())) }
    if rarely(10) {
      members.append(
        pick([
          ("zIndex", "0.5"), ("phase", "5"), ("phase", "{}"), ("handles", "{}"), ("isDraggable", "0"),
          ("persistence", "\"kept\""), ("zIndex", "\"1\""), ("parentID", "3")
        ]))
    }
    if oneIn(3) {
      // Every key, as `jsonString()` writes each node.
      members += [
        ("phase", "{" + space() + "\"normal\"" + space() + ":" + space() + "{" + space() + "}}"),
        ("persistence", "\"persistent\""), ("isSelected", "false"), ("isDraggable", "true"),
        ("acceptsChildren", "false"), ("zIndex", "0")
      ]
    }
    if oneIn(6) {
      members.append(
        pick([
          ("parentID", "\"p\""), ("parentID", "null"), ("isSelected", "true"), ("zIndex", "3"), ("zIndex", "-0"),
          ("zIndex", "9007199254740992"), ("zIndex", "9007199254740993"), ("zIndex", "1e16"), ("zIndex", "-2.0"),
          ("phase", "{\"normal\": {}}"), ("phase", "{\"normal\": 1}"), ("phase", "{\"draft\": {\"_0\": \"valid\"}}"),
          ("phase", "{\"normal\": {}, \"x\": 1}"), ("handles", "[]"), ("persistence", "\"transient\""),
          ("persistence", "\"persistent\""), ("isDraggable", "false"), ("acceptsChildren", "true"),
          ("handles", "[{\"id\": \"a\", \"type\": \"target\"}]")
        ]))
    }
    return object(arrange(members))
  }

  mutating func edgeText() -> String {
    if rarely(25) { return pick(["[1, 2]", "\"edge\"", "{}", "{\"id\": \"e\"}", "{\"id\": \"e\" ,}"]) }
    var members: [(String, String)] = [
      ("id", rarely(15) ? anyText(depth: 0) : idText("e")),
      ("sourceNodeID", rarely(20) ? anyText(depth: 0) : idText("n")),
      ("targetNodeID", rarely(20) ? anyText(depth: 0) : idText("n"))
    ]
    if !oneIn(3) {
      members.append(("targetHandleID", rarely(10) ? anyText(depth: 0) : pick(["\"a\"", "\"b\"", "null"])))
    }
    if oneIn(3) {
      members.append(("sourceHandleID", rarely(10) ? anyText(depth: 0) : pick(["\"out\"", "\"value\"", "null"])))
    }
    if rarely(10) {
      members.append(pick([("pathType", "\"wavy\""), ("isSelected", "1"), ("label", "2"), ("parentID", "[]")]))
    }
    if oneIn(3) { members += [("pathType", "\"bezier\""), ("isSelected", "false")] }
    if oneIn(6) {
      members.append(
        pick([
          ("label", "\"l\""), ("label", "null"), ("pathType", "\"straight\""), ("pathType", "\"smoothStep\""),
          ("isSelected", "true"), ("parentID", "\"p\""), ("parentID", "null"), ("label", "\"caf\u{E9}\"")
        ]))
    }
    return object(arrange(members))
  }

  /// A whole document: `nodes` and `edges` (and sometimes more) in random order, sometimes cut short.
  mutating func document() -> String {
    let nodes = (0..<Int(random.next() % 7)).map { _ in space() + nodeText() + space() }
    let edges = (0..<Int(random.next() % 7)).map { _ in space() + edgeText() + space() }
    var members = [
      ("nodes", "[" + nodes.joined(separator: ",") + space() + "]"),
      ("edges", "[" + edges.joined(separator: ",") + space() + "]")
    ]
    if oneIn(4) { members.append(("viewport", "{\"offset\": [0, 0], \"zoom\": 1}")) }
    if oneIn(10) { members.append(("title", "\"extra\"")) }
    if oneIn(20) { members.append(("nodes", "[" + nodeText() + "]")) }
    members.shuffle(using: &random)
    var text = object(members)
    if rarely(8) { text.removeLast(Int(random.next() % UInt64(min(text.count, 30))) + 1) }
    return text
  }
}
