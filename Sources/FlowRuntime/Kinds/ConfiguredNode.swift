import FlowGraph

/// A node spec made concrete: the kind's instance plus the value each input takes while
/// unconnected (a param of the same name, else the port's default).
public struct ConfiguredNode: Sendable {
  public var instance: NodeInstance
  public var unconnectedInputs: [Value]
}
