/// A bounded sequence that forgets its oldest element when a push would exceed its capacity:
/// the store's undo history and its operation history.
///
/// Invariants: `count <= capacity`; the element at logical position `i` (0 = oldest) lives in
/// `storage[(head + i) % capacity]`, and every such slot holds a value; `storage` grows lazily
/// up to `capacity` slots, so an unused large capacity costs nothing; `head == 0` while
/// `storage.count < capacity` (nothing was ever evicted, so the elements are a prefix).
///
/// - Complexity: `append`, `popLast`, `last` are O(1); iteration is O(`count`); changing the
///   capacity is O(`count`).
struct RingBuffer<Element> {
  private var storage: [Element?] = []
  private var head = 0
  /// How many elements the buffer holds.
  private(set) var count = 0
  /// The most elements the buffer keeps (0 keeps none).
  private(set) var capacity: Int

  /// An empty buffer keeping at most `capacity` elements (a negative capacity counts as 0).
  init(capacity: Int) { self.capacity = max(0, capacity) }

  var isEmpty: Bool { count == 0 }

  /// The newest element.
  var last: Element? { count == 0 ? nil : storage[slot(count - 1)] }

  /// The physical slot of logical position `index`.
  private func slot(_ index: Int) -> Int {
    let raw = head + index
    return raw >= capacity ? raw - capacity : raw
  }

  /// Adds `element` as the newest one.
  ///
  /// - Returns: the oldest element, if the buffer was full and had to forget it (with
  ///   capacity 0, `element` itself).
  @discardableResult
  mutating func append(_ element: consuming Element) -> Element? {
    guard capacity > 0 else { return element }
    if count == capacity {
      var evicted: Element? = element
      swap(&evicted, &storage[head])  // moves both ways: no copy of either
      head = head + 1 == capacity ? 0 : head + 1
      return evicted
    }
    let target = slot(count)
    if target == storage.count { storage.append(element) } else { storage[target] = element }
    count += 1
    return nil
  }

  /// Removes and returns the newest element.
  mutating func popLast() -> Element? {
    guard count > 0 else { return nil }
    let target = slot(count - 1)
    var element: Element?
    swap(&element, &storage[target])
    count -= 1
    return element
  }

  /// Forgets every element (the capacity stays).
  mutating func removeAll() {
    storage = []
    head = 0
    count = 0
  }

  /// Changes the capacity, forgetting the oldest elements that no longer fit.
  mutating func setCapacity(_ newCapacity: Int) {
    let kept = Array(elements.suffix(max(0, newCapacity)))
    self = RingBuffer(capacity: newCapacity)
    for element in kept { append(element) }
  }

  /// The elements, oldest first.
  var elements: [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    for index in 0..<count { result.append(storage[slot(index)]!) }
    return result
  }

  /// Replaces every element by `transform(element)`, keeping the order.
  mutating func transform(_ transform: (Element) -> Element) {
    for index in 0..<count {
      let target = slot(index)
      storage[target] = transform(storage[target]!)
    }
  }

  /// Traps unless the invariants of the type hold (only with `FLOW_INTERNAL_CHECKS`).
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(
      count >= 0 && count <= capacity && storage.count <= capacity,
      "Internal inconsistency: ring of \(count)/\(capacity)")
    precondition(storage.count == capacity || head == 0, "Internal inconsistency: ring head \(head) before it is full")
    for index in 0..<count {
      precondition(storage[slot(index)] != nil, "Internal inconsistency: ring slot \(index) empty")
    }
    #endif
  }
}

extension RingBuffer: Sendable where Element: Sendable {}
