import FlowGraph

/// What the run cache keeps for one node: its outputs by port, and for a writer the size and
/// modification time its target file had right after the write (a later run skips the writer
/// only while the file still has them).
package struct CacheEntry: Sendable, Equatable {
  /// The node's outputs, port name → value.
  package var outputs: [(port: String, value: Value)]
  /// A writer's target as it left it: size in bytes and modification time in ns.
  package var target: FileIdentity?

  package init(outputs: [(port: String, value: Value)], target: FileIdentity? = nil) {
    self.outputs = outputs
    self.target = target
  }

  package static func == (a: CacheEntry, b: CacheEntry) -> Bool {
    a.target == b.target && a.outputs.count == b.outputs.count
      && zip(a.outputs, b.outputs).allSatisfy { $0.port == $1.port && $0.value == $1.value }
  }

  /// The output on `port`, if kept.
  package func value(of port: String) -> Value? { outputs.first { $0.port == port }?.value }
}
