// Reading a store node in place: `Array`'s subscript hands out a copy of the element (a
// `FlowNode`: its references retained and released), which a definition edit would pay once
// per instance only to compare a few fields.
//
// INVARIANT: the buffer pointer is used only inside `withUnsafeBufferPointer`'s closure, for
// reading one element whose index is checked against the buffer's count first (a
// precondition where the caller guarantees it); nothing is written through it, stored, or
// escapes the closure, and the array is not mutated meanwhile (the methods are non-mutating).

extension StoreState {
  /// Whether `slot` holds `templates[inner]` stamped into instance `instanceID`
  /// (`FlowNode.isStamped(from:in:)`), both read in place; `false` for an empty or missing slot.
  ///
  /// - Precondition: `inner` is in range.
  func holdsNode(at slot: Int, stampedFrom templates: [FlowNode], _ inner: Int, in instanceID: String) -> Bool {
    templates.withUnsafeBufferPointer { templates in
      precondition(inner >= 0 && inner < templates.count, "Index out of range")
      return nodes.withUnsafeBufferPointer { buffer in
        slot >= 0 && slot < buffer.count && buffer[slot]?.isStamped(from: templates[inner], in: instanceID) == true
      }
    }
  }

  /// Whether `slot` holds the node of id `id`, read in place; `false` for an empty or missing slot.
  func holdsNode(at slot: Int, id: String) -> Bool {
    nodes.withUnsafeBufferPointer { buffer in slot >= 0 && slot < buffer.count && buffer[slot]?.id == id }
  }
}
