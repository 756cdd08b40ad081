/// The ids of an engine's nodes by dense index, and the index of each present id: an `IDTable`
/// that compares against `ids` instead of storing the strings again (5–11 bytes per node where
/// a `[String: Int32]` takes ~28).
///
/// Invariants: those of `IDTable` over `ids`. A removed node keeps its id in `ids` and leaves
/// the table, so an id can come back as a new node.
package struct NodeIDTable: Sendable {
  /// Node ids by dense index (removed nodes included).
  package private(set) var ids: [String] = []
  private var table = IDTable()

  package init() {}

  /// A table of `ids`, each indexed at its position.
  package init(_ ids: [String]) {
    self.ids = ids
    table = IDTable(slots: (0..<Int32(ids.count)), count: ids.count) { ids[Int($0)] }
  }

  /// Adds `id` as the next node (not indexed until set through the subscript).
  package mutating func append(_ id: String) { ids.append(id) }

  package mutating func reserveCapacity(_ count: Int) { ids.reserveCapacity(count) }

  /// Bytes held by the ids array and the table.
  package var allocatedBytes: Int { ids.capacity * MemoryLayout<String>.stride + table.allocatedBytes }

  /// The node of id `id`; set a node (whose id is `id`) to index it, `nil` to unindex the id.
  package subscript(id: String) -> Int32? {
    get { table.slot(of: id) { ids[Int($0)] } }
    set {
      Self.remove(id, from: &table, ids: ids)
      if let node = newValue {
        precondition(ids[Int(node)] == id, "Internal inconsistency: indexing node \(node) under another id")
        Self.insert(node, into: &table, ids: ids)
      }
    }
  }

  private static func remove(_ id: String, from table: inout IDTable, ids: [String]) {
    table.remove(id) { ids[Int($0)] }
  }

  private static func insert(_ node: Int32, into table: inout IDTable, ids: [String]) {
    table.insert(node) { ids[Int($0)] }
  }
}
