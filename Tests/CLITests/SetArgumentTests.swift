import FlowGraph
import FlowNodes
import FlowRuntime
import Synchronization
import Testing
@testable import FlowCommandLine

/// `flow run --set`, in process, with a kind that has an integer param: bad values are usage
/// errors naming the argument, numbers never trap, a connected input warns.
@Suite struct SetArgumentTests {
  /// A kind with an integer param `count` and one number input `x`.
  struct Repeat: StaticNodeKind {
    var name: String { "repeat" }
    var summary: String { "test kind with an integer param" }
    var parameters: [ParameterDeclaration] { [ParameterDeclaration("count", .integer, default: .integer(1))] }
    var inputs: [InputPort] { [InputPort("x", .number, default: .number(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(inputs: inputs, outputs: outputs, evaluator: self)
    }
  }

  /// The warnings a command printed.
  final class Warnings: Sendable {
    let lines = Mutex<[String]>([])
  }

  static func context(warnings: Warnings? = nil) -> CommandContext {
    var registry = NodeKindRegistry.standard
    registry.register(Repeat())
    return CommandContext(
      registry: registry, write: { _ in }, warn: { line in warnings?.lines.withLock { $0.append(line) } })
  }

  static var document: FlowDocument {
    FlowDocument(
      nodes: [
        FlowNode(id: "source", data: NodeSpec(kind: "number")),
        FlowNode(id: "r", data: NodeSpec(kind: "repeat"))
      ],
      edges: [
        FlowEdge(id: "e", sourceNodeID: "source", sourceHandleID: "value", targetNodeID: "r", targetHandleID: "x")
      ])
  }

  @Test(arguments: ["1e300", "-1e300", "1.5", "9.3e18", "\"3\"", "true"])
  func anIntegerParamOutOfRangeOrOfTheWrongTypeIsAUsageError(value: String) {
    var document = Self.document
    do throws(CommandFailure) {
      try RunCommand.apply("r.count=\(value)", to: &document, context: Self.context())
      Issue.record("r.count=\(value) was accepted")
    } catch {
      #expect(error.status == .usage)
      #expect(error.lines.count == 1)
      #expect(error.lines[0].hasPrefix("flow: --set r.count=\(value): "), "\(error.lines)")
      #expect(error.lines[0].contains("'count'"))
    }
  }

  @Test(arguments: ["0", "42", "-7", "9e15"])
  func aWholeNumberSetsAnIntegerParam(value: String) throws {
    var document = Self.document
    try RunCommand.apply("r.count=\(value)", to: &document, context: Self.context())
    #expect(document.nodes[1].data.params["count"] == (try JSONValue.parse(value)))
  }

  @Test func settingAConnectedInputWarnsOnce() throws {
    let warnings = Warnings()
    var document = Self.document
    try RunCommand.apply("r.x=5", to: &document, context: Self.context(warnings: warnings))
    let lines = warnings.lines.withLock { $0 }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("warning") == true && lines.first?.contains("'x'") == true)
  }

  @Test func settingAnUnconnectedParamDoesNotWarn() throws {
    let warnings = Warnings()
    var document = Self.document
    try RunCommand.apply("source.value=5", to: &document, context: Self.context(warnings: warnings))
    #expect(warnings.lines.withLock { $0 }.isEmpty)
    #expect(document.nodes[0].data.params["value"] == .number(5))
  }
}
