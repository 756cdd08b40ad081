extension StoreState {
  /// `instances` in slot order, as (slot, position in `instances`) pairs: indices only, no node
  /// copied (an instance without a live node, which should not happen, goes last with slot -1,
  /// by id).
  ///
  /// `hints` holds a slot for each instance by position (those found for the same list last
  /// time: a store's instances list in the same order until they change), and `order` the
  /// positions in slot order found last time. Where both still hold (every hinted slot holds
  /// its instance's id and the slots ascend strictly in `order`), they are the answer, checked
  /// in slot order (the store's nodes read front to back) and left as they are. Otherwise a
  /// hint is taken where that slot holds the instance's id, the id is looked up elsewhere, the
  /// slots are sorted, and `hints` and `order` hold what was found on return.
  ///
  /// - Complexity: O(*n*) where the hints hold, O(*n* log *n*) otherwise.
  func inSlotOrder(_ instances: [StoreSubgraphs.Instance], hints: inout [Int32], order: inout [Int32]) -> [(
    slot: Int32, index: Int32
  )] {
    if let known = hinted(instances, hints: hints, order: order) { return known }
    var keys: [(slot: Int32, index: Int32)] = []
    keys.reserveCapacity(instances.count)
    for (index, instance) in instances.enumerated() {
      var slot: Int32?
      if index < hints.count, case let hint = Int(hints[index]), holdsNode(at: hint, id: instance.id) {
        slot = Int32(hint)
      }
      keys.append((slot ?? nodeSlot(instance.id) ?? Int32.max, Int32(index)))
    }
    hints = keys.map { $0.slot == Int32.max ? -1 : $0.slot }
    // The order found last time, where it still puts the slots strictly ascending (then it is
    // a permutation, and the sorted one): no sort.
    var ordered = order.count == keys.count
    var previous = Int32.min
    for position in order where ordered {
      let slot = position >= 0 && Int(position) < keys.count ? keys[Int(position)].slot : Int32.max
      ordered = slot != Int32.max && slot > previous
      previous = slot
    }
    if ordered {
      keys = order.map { keys[Int($0)] }
    } else {
      keys.sort { a, b in
        guard a.slot == b.slot else { return a.slot < b.slot }
        return instances[Int(a.index)].id < instances[Int(b.index)].id
      }
      order = keys.map(\.index)
    }
    return keys.map { key in (key.slot == Int32.max ? -1 : key.slot, key.index) }
  }

  /// The answer `hints` and `order` give where they still hold for `instances` (same count,
  /// every hinted slot holding its instance's id, slots strictly ascending in `order`, hence
  /// a permutation); `nil` otherwise.
  private func hinted(_ instances: [StoreSubgraphs.Instance], hints: [Int32], order: [Int32]) -> [(
    slot: Int32, index: Int32
  )]? {
    guard !instances.isEmpty, hints.count == instances.count, order.count == instances.count else { return nil }
    var result: [(slot: Int32, index: Int32)] = []
    result.reserveCapacity(instances.count)
    var previous = -1
    for position in order {
      guard position >= 0, Int(position) < instances.count, case let slot = Int(hints[Int(position)]),
        slot > previous, holdsNode(at: slot, id: instances[Int(position)].id)
      else { return nil }
      previous = slot
      result.append((Int32(slot), position))
    }
    return result
  }
}
