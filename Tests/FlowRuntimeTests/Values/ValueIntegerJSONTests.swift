import FlowGraph
import Testing
@testable import FlowRuntime

/// JSON integers become exact `Value.integer`s wherever the type allows one, and integers are
/// written back as JSON integers (Reference.md, "Documents").
@Suite struct ValueIntegerJSONTests {
  static let extremes: [Int64] = [.max, .min, .max - 1, 9_007_199_254_740_993, -9_007_199_254_740_993, 0]

  @Test func aJSONIntegerIsAnExactIntegerForIntegerAndAnyPortsAndADoubleForNumberPorts() {
    for n in Self.extremes {
      #expect(Value(json: .integer(n), as: .integer) == .integer(n))
      #expect(Value(json: .integer(n), as: .any) == .integer(n))
      #expect(Value(json: .integer(n), as: .number) == .number(Double(n)))
      #expect(Value(json: [.integer(n)], as: .list) == .list([.integer(n)]))
      #expect(Value(json: ["k": .integer(n)], as: .record) == .record(["k": .integer(n)]))
    }
    #expect(Value(json: .number(9_223_372_036_854_775_808), as: .integer) == nil, "2^63 is beyond Int64")
    #expect(Value(json: .number(1e3), as: .integer) == .integer(1000), "a whole Double still fits an integer port")
    #expect(Value(json: .number(1.5), as: .integer) == nil)
  }

  @Test func integersAreWrittenAsExactJSONIntegers() throws {
    for n in Self.extremes {
      #expect(Value.integer(n).jsonValue.isIdentical(to: .integer(n)))
      #expect(Value.integer(n).description == String(n))
      #expect(Value.list([.integer(n)]).description == "[\(n)]")
      let text = Value.record(["k": .integer(n)]).jsonValue.serialized(options: [])
      #expect(text == "{\"k\":\(n)}")
      #expect(Value(json: try JSONValue.parse(text), as: .any) == .record(["k": .integer(n)]))
    }
  }

  @Test func jsonRowsMakeExactIntegerColumns() throws {
    let rows = try JSONValue.parse(
      #"[{"a": 9223372036854775807, "b": 1}, {"a": -9223372036854775808, "b": 2.5}, {"a": 9007199254740993, "b": null}]"#
    )
    let items = try #require(rows.arrayValue)
    let table = try #require(Table(jsonRows: items))
    #expect(table.column(named: "a")?.values == [.integer(.max), .integer(.min), .integer(9_007_199_254_740_993)])
    #expect(table.column(named: "b")?.values == [.number(1), .number(2.5), .null])
    #expect(
      table.jsonRows.serialized(options: [])
        == #"[{"a":9223372036854775807,"b":1},{"a":-9223372036854775808,"b":2.5},{"a":9007199254740993,"b":null}]"#)
  }

  /// A kind with an integer param `count`, a number param `scale` and an `any` input `x`; it
  /// outputs `count`, `scale` and `x`.
  struct Echo: StaticNodeKind {
    var name: String { "echo" }
    var summary: String { "test kind with integer and number params" }
    var parameters: [ParameterDeclaration] {
      [
        ParameterDeclaration("count", .integer, default: .integer(0)),
        ParameterDeclaration("scale", .number, default: .number(1))
      ]
    }
    var inputs: [InputPort] { [InputPort("x", .any, default: .null)] }
    var outputs: [PortDeclaration] {
      [PortDeclaration("count", .integer), PortDeclaration("scale", .number), PortDeclaration("x", .any)]
    }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {}
    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: inputs, outputs: outputs,
        evaluator: Evaluator(count: parameters.integer("count"), scale: parameters.number("scale")))
    }
    struct Evaluator: NodeEvaluator {
      let count: Int64?
      let scale: Double?
      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        outputs[0] = count.map(Value.integer) ?? .null
        outputs[1] = scale.map(Value.number) ?? .null
        outputs[2] = inputs[0]
      }
    }
  }

  static func run(_ params: String) throws -> [Value] {
    let json = try JSONValue.parse(params)
    let spec = NodeSpec(kind: "echo", params: try #require(json.objectValue))
    guard case .success(let configured) = NodeKindRegistry([Echo()]).configure(spec) else {
      throw NodeError("\(params) was rejected")
    }
    var outputs = NodeOutputs([Value](repeating: .null, count: 3))
    try configured.instance.evaluator.evaluate(NodeInputs(configured.unconnectedInputs), &outputs)
    return outputs.values
  }

  @Test func integerParamsAcceptTheWholeInt64Range() throws {
    #expect(try Self.run(#"{"count": 9223372036854775806}"#)[0] == .integer(9_223_372_036_854_775_806))
    #expect(try Self.run(#"{"count": 9223372036854775807}"#)[0] == .integer(.max))
    #expect(try Self.run(#"{"count": -9223372036854775808}"#)[0] == .integer(.min))
    #expect(try Self.run(#"{"count": 9007199254740993}"#)[0] == .integer(9_007_199_254_740_993))
    #expect(throws: NodeError.self) { try Self.run(#"{"count": 9223372036854775808}"#) }
    #expect(
      try Self.run(#"{"scale": 9007199254740993}"#)[1] == .number(9_007_199_254_740_992),
      "a number param asks for a Double")
    #expect(try Self.run(#"{"x": 9223372036854775807}"#)[2] == .integer(.max), "an any input keeps the integer")
    #expect(try Self.run(#"{"x": [9223372036854775807, 1.5]}"#)[2] == .list([.integer(.max), .number(1.5)]))
  }
}
