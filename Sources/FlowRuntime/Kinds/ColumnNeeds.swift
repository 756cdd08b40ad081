import FlowGraph

/// Which columns of a table a consumer reads: all of them, or only some (by name).
public enum ColumnNeeds: Sendable, Hashable {
  case all
  case only(Set<String>)

  /// Both needs together.
  public func union(_ other: ColumnNeeds) -> ColumnNeeds {
    switch (self, other) {
    case (.only(let a), .only(let b)): .only(a.union(b))
    default: .all
    }
  }

  /// These needs plus `names`.
  public func adding(_ names: some Sequence<String>) -> ColumnNeeds {
    if case .only(let set) = self { return .only(set.union(names)) }
    return .all
  }
}

/// A kind that can say, from a node's params, which columns of its table inputs it reads
/// (`ColumnDemand` asks it, sinks first, to give each reader only the columns used).
///
/// A kind that does not adopt it needs its inputs whole.
public protocol ColumnDemandingKind: NodeKind {
  /// What input `input` (a port name; "" for an edge that names none) must hold, given the node's `params` and what the
  /// consumers of its outputs need (`.all` if any of them cannot say).
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds
}

/// A kind that makes a table from outside (a file) and can make only some of its columns.
public protocol ColumnProjectingKind: NodeKind {
  /// `params` set to make only `columns` (the names the source does not have are ignored), or
  /// `nil` if the user set the projection already (the user's choice stands).
  func projecting(_ params: JSONObject, to columns: Set<String>) -> JSONObject?
}

extension ColumnProjectingKind {
  public var asColumnProjectingKind: (any ColumnProjectingKind)? { self }
}
