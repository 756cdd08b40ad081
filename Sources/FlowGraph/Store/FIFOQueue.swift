/// A first-in first-out queue that releases each element as it is taken: the store's changes
/// waiting for delivery.
///
/// Invariants: the element at logical position `i` (0 = oldest) lives in
/// `slots[(head + i) % slots.count]`, and exactly those `count` slots hold a value, so memory
/// holds only what is still queued; `head == 0` when the queue is empty.
///
/// - Complexity: `append` is amortized O(1); `popFirst`, `first`, `last` are O(1).
struct FIFOQueue<Element> {
  private var slots: [Element?] = []
  private var head = 0
  /// How many elements the queue holds.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// The oldest element.
  var first: Element? { count == 0 ? nil : slots[head] }

  /// The newest element.
  var last: Element? { count == 0 ? nil : slots[slot(count - 1)] }

  /// The physical slot of logical position `index`.
  private func slot(_ index: Int) -> Int {
    let raw = head + index
    return raw >= slots.count ? raw - slots.count : raw
  }

  /// Adds `element` as the newest one.
  mutating func append(_ element: consuming Element) {
    if count == slots.count { grow() }
    slots[slot(count)] = element
    count += 1
  }

  /// Removes and returns the oldest element; its slot no longer references it.
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    var element: Element?
    swap(&element, &slots[head])
    count -= 1
    head = count == 0 ? 0 : slot(1)
    // After a burst, give back the slots too (a queue that stays small keeps its few).
    if count == 0 && slots.count > 64 { slots = [] }
    return element
  }

  /// Doubles the slots, moving the elements to the front in order.
  private mutating func grow() {
    var grown: [Element?] = []
    grown.reserveCapacity(max(8, 2 * slots.count))
    for index in 0..<count {
      var element: Element?
      swap(&element, &slots[slot(index)])
      grown.append(element)
    }
    grown.append(contentsOf: repeatElement(nil, count: max(8, 2 * slots.count) - count))
    slots = grown
    head = 0
  }

  /// How many slots reference an element (for tests: always `count`, delivered elements are
  /// released).
  var _liveSlotCount: Int { slots.reduce(0) { $1 == nil ? $0 : $0 + 1 } }

  /// Traps unless the invariants of the type hold (only with `FLOW_INTERNAL_CHECKS`).
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(
      count >= 0 && count <= slots.count && (count > 0 || head == 0), "Internal inconsistency: queue of \(count)")
    precondition(_liveSlotCount == count, "Internal inconsistency: queue of \(count) references \(_liveSlotCount)")
    #endif
  }
}

extension FIFOQueue: Sendable where Element: Sendable {}
