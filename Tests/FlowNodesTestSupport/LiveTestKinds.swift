import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport

/// Live source kinds for engine tests.
///
/// | kind | params | outputs | behaviour |
/// |---|---|---|---|
/// | `range` | `count` (integer) | `value` (number) | emits 1, 2, … `count` as fast as the engine takes them |
/// | name given | — | `value` (any) | emits each value the test `send`s to its `SourceScript` |
public enum LiveTestKinds {
  /// The standard kinds, `range`, and one scripted source kind per script (named after it).
  public static func registry(_ scripts: [SourceScript] = [], gate: Gate? = nil) -> NodeKindRegistry {
    var registry = gate.map { TestKinds.registry(gate: $0) } ?? NodeKindRegistry.standard
    registry.register(RangeKind())
    for script in scripts { registry.register(ScriptedKind(script: script)) }
    return registry
  }

  struct RangeKind: NodeKind {
    var name: String { "range" }
    var summary: String { "emits 1 … count" }
    var parameters: [ParameterDeclaration] { [ParameterDeclaration("count", .integer, required: true)] }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: [], outputs: [PortDeclaration("value", .number)], evaluator: Never(),
        live: .source(Source(count: parameters.integer("count") ?? 0)))
    }

    struct Source: LiveSource {
      let count: Int64
      var initialState: Value { .integer(0) }
      func restore(_ saved: Value) throws(NodeError) -> Value { saved }
      func run(from state: Value, _ emitter: LiveEmitter) async throws {
        var next = (state.integerValue ?? 0) + 1
        while next <= count {
          try await emitter.emit([.number(Double(next))], state: .integer(next))
          next += 1
        }
      }
    }
  }

  struct ScriptedKind: NodeKind {
    let script: SourceScript
    var name: String { script.name }
    var summary: String { "emits what the test sends" }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: [], outputs: [PortDeclaration("value", .any)], evaluator: Never(),
        live: .source(Source(script: script), policy: script.policy))
    }

    struct Source: LiveSource {
      let script: SourceScript
      var initialState: Value { .integer(0) }
      func restore(_ saved: Value) throws(NodeError) -> Value { saved }
      func run(from state: Value, _ emitter: LiveEmitter) async throws {
        script.started()
        defer { script.stopped() }
        var count = state.integerValue ?? 0
        for await value in script.values {
          count += 1
          try await emitter.emit([value], state: .integer(count))
        }
      }
    }
  }

  struct Never: NodeEvaluator {
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { throw NodeError("live only") }
  }
}

/// What a scripted source emits: the values a test sends, in order; `finish()` ends the source.
/// Counts how often a source of it started and stopped.
public final class SourceScript: Sendable {
  public let name: String
  public let policy: LivePolicy
  let values: AsyncStream<Value>
  private let continuation: AsyncStream<Value>.Continuation
  private let counts = Locked((started: 0, stopped: 0))

  public init(_ name: String, policy: LivePolicy = .persistent) {
    self.name = name
    self.policy = policy
    (values, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
  }

  public func send(_ value: Value) { continuation.yield(value) }
  public func finish() { continuation.finish() }

  public var startCount: Int { counts.withLock { $0.started } }
  public var stopCount: Int { counts.withLock { $0.stopped } }
  func started() { counts.withLock { $0.started += 1 } }
  func stopped() { counts.withLock { $0.stopped += 1 } }
}
