/// A growable stack that hands its top elements over to a new array by
/// moving them (no retain/release traffic, no copies): `JSONParser`'s stacks of the children
/// of open containers.
///
/// Why unsafe, and why it is sound: `ParserStack` owns its allocation alone (it is
/// `~Copyable`); the first `count` slots are initialized and the rest are not, `count <=
/// capacity` always; `last` is only read while the stack is not empty.
struct ParserStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 64
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// The top element; the stack must not be empty.
  var last: UnsafeMutablePointer<Element> {
    base + (count - 1)
  }

  mutating func push(_ element: consuming Element) {
    if count == capacity {
      let newCapacity = capacity * 2
      let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
      newBase.moveInitialize(from: base, count: count)
      base.deallocate()
      base = newBase
      capacity = newCapacity
    }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Removes the elements from `start` up, returning them in order.
  mutating func pop(from start: Int) -> [Element] {
    let popped = count - start
    guard popped > 0 else { return [] }
    count = start
    // (reserveCapacity + append is specialized for Element; the
    // unsafeUninitializedCapacity initializer looks up generic metadata
    // at run time on every call.)
    var result: [Element] = []
    result.reserveCapacity(popped)
    for position in start..<(start + popped) {
      result.append((base + position).move())
    }
    return result
  }
}
