import Foundation
import Testing

import FlowGraph
import FlowTestSupport

/// Writing a document never changes its meaning: key order of every value, numbers as their
/// kind (integers digit for digit, whole `Double`s as `Double`s), unknown keys at every level;
/// written again, the bytes are the same.
@Suite struct WritingKeepsMeaningTests {
  private func reread(_ text: String) throws -> (FlowDocument, String) {
    let document = try FlowDocument(jsonText: text)
    return (document, document.jsonString())
  }

  @Test func aRecordParamKeepsItsOrder() throws {
    let text = #"""
      {"nodes": [{"id": "d", "data": {"kind": "derive", "params": {"columns": {"z": "x * 10", "a": "z + 1", "m": "a"}}}}],
       "edges": []}
      """#
    let (document, written) = try reread(text)
    #expect(document.nodes[0].data.params["columns"]?.objectValue?.keys == ["z", "a", "m"])
    let again = try FlowDocument(jsonText: written)
    #expect(again.nodes[0].data.params["columns"]?.objectValue?.keys == ["z", "a", "m"])
    #expect(again.jsonString() == written)
  }

  @Test func numbersKeepTheirKind() throws {
    let text = #"""
      {"nodes": [{"id": "n", "data": {"kind": "number", "params": {"value": 9223372036854775806,
        "whole": 2.0, "minus": -0.0, "half": 0.5, "big": 1e300, "exact": 9007199254740993}}}], "edges": []}
      """#
    let (_, written) = try reread(text)
    let params = try FlowDocument(jsonText: written).nodes[0].data.params
    #expect(params["value"]?.isIdentical(to: .integer(9_223_372_036_854_775_806)) == true)
    #expect(params["whole"]?.isIdentical(to: .number(2.0)) == true)
    #expect(params["minus"].map { if case .number(let x) = $0 { x == 0 && x.sign == .minus } else { false } } == true)
    #expect(params["half"]?.isIdentical(to: .number(0.5)) == true)
    #expect(params["big"]?.isIdentical(to: .number(1e300)) == true)
    #expect(params["exact"]?.isIdentical(to: .integer(9_007_199_254_740_993)) == true)
    #expect(written.contains("9223372036854775806"))
    #expect(written.contains("\"whole\" : 2.0"))
  }

  @Test func aWholeDoubleInSavedLiveStateReadsBackAsADouble() throws {
    var document = FlowDocument()
    document.liveState = ["sum": ["total": .number(2.0), "count": .integer(2)]]
    let reread = try FlowDocument(jsonText: document.jsonString())
    let state = try #require(reread.liveState["sum"]?.objectValue)
    #expect(state["total"]?.isIdentical(to: .number(2.0)) == true)
    #expect(state["count"]?.isIdentical(to: .integer(2)) == true)
    #expect(state.keys == ["total", "count"])
  }

  @Test func unknownKeysAtEveryLevelAreKept() throws {
    let text = #"""
      {"zeta": {"b": 1, "a": 2}, "nodes": [{"id": "a", "custom": {"y": 1, "x": [1, 2.5]},
        "data": {"kind": "number", "params": {"value": 1}, "note": "kept"},
        "handles": [{"id": "value", "type": "source", "position": "right", "color": "red"}]}],
       "edges": [], "viewport": {"zoom": 2, "offset": [1, 2], "grid": true},
       "flowRuntime": {"formatVersion": 1, "editor": {"theme": "dark"}}, "alpha": null}
      """#
    let (document, written) = try reread(text)
    #expect(document.extra.keys == ["zeta", "alpha"])
    let json = try JSONValue.parse(Array(written.utf8))
    let root = try #require(json.objectValue)
    #expect(root.keys == ["zeta", "nodes", "edges", "viewport", "flowRuntime", "alpha"])
    #expect(root["zeta"]?.objectValue?.keys == ["b", "a"])
    let node = try #require(root["nodes"]?.arrayValue?.first?.objectValue)
    #expect(node["custom"]?.objectValue?.keys == ["y", "x"])
    #expect(node["data"]?.objectValue?["note"] == .string("kept"))
    #expect(node["handles"]?.arrayValue?.first?.objectValue?["color"] == .string("red"))
    #expect(root["viewport"]?.objectValue?.keys == ["zoom", "offset", "grid"])
    #expect(root["flowRuntime"]?.objectValue?["editor"]?.objectValue?["theme"] == .string("dark"))
    #expect(try FlowDocument(jsonText: written).jsonString() == written)
  }

  @Test func anEdgeKeepsItsUnknownKeys() throws {
    let text = #"""
      {"nodes": [{"id": "a", "data": {"kind": "number"}}, {"id": "b", "data": {"kind": "add"}}],
       "edges": [{"id": "e", "sourceNodeID": "a", "targetNodeID": "b", "targetHandleID": "a", "weight": 3}]}
      """#
    let (document, written) = try reread(text)
    #expect(document.edges[0].shape?.unknown["weight"] == .integer(3))
    #expect(written.contains("\"weight\" : 3"))
  }

  @Test func edgesWithoutIdsAndWrittenAsStrings() throws {
    let text = #"""
      {"nodes": [{"id": "a", "data": {"kind": "number"}}, {"id": "b", "data": {"kind": "add"}},
                 {"id": "c", "data": {"kind": "add"}}],
       "edges": [{"sourceNodeID": "a", "sourceHandleID": "value", "targetNodeID": "b", "targetHandleID": "a"},
                 "b.result -> c.b", "a->c.a"]}
      """#
    let (document, written) = try reread(text)
    #expect(document.edges.map(\.id) == ["a.value->b.a", "b.result->c.b", "a->c.a"])
    #expect(document.edges[1].sourceHandleID == "result" && document.edges[1].targetHandleID == "b")
    #expect(document.edges[2].sourceHandleID == nil && document.edges[2].targetNodeID == "c")
    let json = try JSONValue.parse(Array(written.utf8))
    for edge in json.objectValue?["edges"]?.arrayValue ?? [] {
      #expect(edge.objectValue?["id"]?.stringValue != nil, "every edge is written in full")
    }
  }

  @Test func aMalformedStringEdgeNamesItsPosition() {
    let text = #"{"nodes": [], "edges": ["a.b c"]}"#
    #expect {
      try FlowDocument(jsonText: text)
    } throws: { error in
      "\(error)".contains("edges[0]") && "\(error)".contains("source.port -> target.port")
    }
  }

  /// 500 random documents: records with random key orders and unknown keys at every level,
  /// integers past 2^53, floats; written, read and written again: the same document, the same
  /// bytes, every value identical (kind included).
  @Test func randomDocumentsRoundTripExactly() throws {
    var random = SeededRandom(seed: 37)
    for round in 0..<500 {
      let json = RandomDocument.make(&random)
      let text = json.serialized(
        options: random.next() % 2 == 0 ? [.distinguishingDoubles] : [.prettyPrinted, .distinguishingDoubles])
      let document = try FlowDocument(jsonText: text)
      let written = document.jsonString()
      let again = try FlowDocument(jsonText: written)
      // The first write adds the keys the source left out (a viewport, say); after that, the
      // document is a fixed point.
      #expect(
        again.nodes == document.nodes && again.edges == document.edges && again.extra == document.extra,
        "round \(round)")
      #expect(again.jsonString() == written, "round \(round)")
      for (before, after) in zip(document.nodes, again.nodes) {
        #expect(after.data.params.isIdentical(to: before.data.params), "round \(round): node \(before.id)")
      }
      // Every param object of the source keeps its key order in what was written.
      let source = try #require(json.objectValue?["nodes"]?.arrayValue)
      for (element, node) in zip(source, again.nodes) {
        let params = element.objectValue?["data"]?.objectValue?["params"]?.objectValue ?? JSONObject()
        #expect(node.data.params.isIdentical(to: params), "round \(round): node \(node.id) params")
      }
    }
  }
}

extension JSONObject {
  /// Same members in the same order, every value of the same kind (`isIdentical(to:)`).
  func isIdentical(to other: JSONObject) -> Bool {
    JSONValue.object(self).isIdentical(to: .object(other))
  }
}

/// Random documents for the round-trip property.
enum RandomDocument {
  static func make(_ random: inout SeededRandom) -> JSONValue {
    let count = Int(random.next() % 6) + 1
    var nodes: [JSONValue] = []
    for index in 0..<count {
      var members: [JSONMember] = [
        JSONMember(key: "id", value: .string("n\(index)")),
        JSONMember(key: "data", value: .object(JSONObject(data(&random))))
      ]
      if random.next() % 2 == 0 {
        members.append(JSONMember(key: "position", value: [.integer(Int64(index) * 10), .number(2.5)]))
      }
      if random.next() % 3 == 0 {
        members.append(JSONMember(key: "x-\(random.next() % 100)", value: value(&random, depth: 2)))
      }
      members.shuffle(using: &random)
      nodes.append(.object(JSONObject(members)))
    }
    var edges: [JSONValue] = []
    if count > 1 {
      var edge: [JSONMember] = [
        JSONMember(key: "id", value: "e0"), JSONMember(key: "sourceNodeID", value: "n0"),
        JSONMember(key: "targetNodeID", value: "n1")
      ]
      if random.next() % 2 == 0 { edge.append(JSONMember(key: "meta", value: value(&random, depth: 2))) }
      edge.shuffle(using: &random)
      edges.append(.object(JSONObject(edge)))
    }
    var root: [JSONMember] = [
      JSONMember(key: "nodes", value: .array(nodes)), JSONMember(key: "edges", value: .array(edges))
    ]
    if random.next() % 2 == 0 { root.append(JSONMember(key: "unknownTop", value: value(&random, depth: 3))) }
    if random.next() % 2 == 0 {
      root.append(
        JSONMember(
          key: "flowRuntime",
          value: .object(
            JSONObject(
              [
                JSONMember(key: "formatVersion", value: 1), JSONMember(key: "tool", value: value(&random, depth: 2))
              ].shuffled(using: &random)))))
    }
    root.shuffle(using: &random)
    return .object(JSONObject(root))
  }

  static func data(_ random: inout SeededRandom) -> [JSONMember] {
    var params: [JSONMember] = []
    for _ in 0..<Int(random.next() % 5) {
      params.append(JSONMember(key: key(&random), value: value(&random, depth: 3)))
    }
    var data = [
      JSONMember(key: "kind", value: "k"), JSONMember(key: "params", value: .object(JSONObject(unique(params))))
    ]
    if random.next() % 3 == 0 { data.append(JSONMember(key: "extra", value: value(&random, depth: 1))) }
    data.shuffle(using: &random)
    return data
  }

  static func key(_ random: inout SeededRandom) -> String {
    let letters = Array("zyxabcmqé")
    return String((0..<Int(random.next() % 3 + 1)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
  }

  /// Objects without duplicate keys (a duplicate reads as its last value, by design).
  static func unique(_ members: [JSONMember]) -> [JSONMember] {
    var seen = Set<String>()
    return members.filter { seen.insert($0.key).inserted }
  }

  static func value(_ random: inout SeededRandom, depth: Int) -> JSONValue {
    switch random.next() % (depth > 0 ? 9 : 7) {
    case 0: return .integer(Int64(bitPattern: random.next()))
    case 1: return .integer(Int64(random.next() % 1000))
    case 2: return .number(Double(random.next() % 100_000) / 64)
    case 3: return .number(Double(Int64(random.next() % 1000)))
    case 4: return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
    case 5: return .string(key(&random))
    case 6: return random.next() % 2 == 0 ? .bool(true) : .null
    case 7: return .array((0..<Int(random.next() % 3)).map { _ in value(&random, depth: depth - 1) })
    default:
      let members = (0..<Int(random.next() % 4)).map { _ in
        JSONMember(key: key(&random), value: value(&random, depth: depth - 1))
      }
      return .object(JSONObject(unique(members)))
    }
  }
}
