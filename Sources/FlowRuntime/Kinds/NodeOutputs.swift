/// The values a node writes to its output ports, in port order. Each starts as the node's
/// previous output, so an output left unwritten keeps its value.
public struct NodeOutputs: Sendable {
  @usableFromInline var values: [Value]

  @inlinable init(_ values: [Value]) { self.values = values }

  public var count: Int { values.count }

  /// The value of output `index`.
  @inlinable public subscript(index: Int) -> Value {
    get { values[index] }
    set { values[index] = newValue }
  }
}
