import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowRuntime

/// `Record` keeps its fields in the order they were made, through every path a value takes;
/// property tests against an array of pairs as the reference.
@Suite struct RecordTests {
  @Test func editsKeepTheOrder() {
    var record: Record = ["z": .integer(1), "a": .integer(2)]
    record["m"] = .integer(3)
    record["z"] = .integer(4)
    #expect(record.keys == ["z", "a", "m"], "a replaced field keeps its place")
    #expect(record["z"] == .integer(4) && record["nope"] == nil)
    record["a"] = nil
    #expect(record.keys == ["z", "m"] && record["m"] == .integer(3), "positions after a removal are right")
    #expect(Record(["b": .null, "a": .null]).keys == ["a", "b"], "a dictionary has no order: sorted by name")
    #expect(Record([("x", .integer(1)), ("y", .integer(2)), ("x", .integer(3))]).map(\.key) == ["x", "y"])
    #expect(
      Record([("x", .integer(1)), ("y", .integer(2)), ("x", .integer(3))])["x"] == .integer(3),
      "a repeated name keeps its first place and last value")
  }

  @Test func aRecordPrintsInItsOrder() {
    let record: Value = .record(["b": .integer(1), "a": .list([.record(["y": .null, "x": .bool(true)])])])
    #expect(record.description == #"{"b":1,"a":[{"y":null,"x":true}]}"#)
  }

  @Test func theOrderIsPartOfEquality() {
    let one: Record = ["a": .integer(1), "b": .integer(2)], other: Record = ["b": .integer(2), "a": .integer(1)]
    #expect(one != other)
    #expect(!Value.record(one).isIdentical(to: .record(other)), "a reordered record is a change for cutoff")
    #expect(
      one == ["a": .integer(1), "b": .integer(2)]
        && one.hashValue == Record(["a": .integer(1), "b": .integer(2)]).hashValue)
  }

  /// Random edits against an array of pairs; then JSON out and back in keeps the order.
  @Test(arguments: 0..<200) func randomEditsMatchAnArrayOfPairs(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var record = Record()
    var reference: [(String, Value)] = []
    for _ in 0..<Int(random.next() % 40) {
      let key = "k\(random.next() % 12)"
      let value: Value? = random.next() % 4 == 0 ? nil : .integer(Int64(random.next() % 100))
      record[key] = value
      if let index = reference.firstIndex(where: { $0.0 == key }) {
        if let value { reference[index].1 = value } else { reference.remove(at: index) }
      } else if let value {
        reference.append((key, value))
      }
      #expect(record.keys == reference.map(\.0) && record.values == reference.map(\.1), "seed \(seed)")
      for (key, value) in reference { #expect(record[key] == value) }
    }
    let json = Value.record(record).jsonValue
    #expect(json.objectValue?.members.map(\.key) == reference.map(\.0))
    let text = json.serialized(options: [])
    #expect(Value(json: try JSONValue.parse(text), as: .record) == .record(record), "seed \(seed): \(text)")
  }
}
