/// The nodes a pass lists as it goes (those that ran, those cut off): appended to once per node
/// on the hot path, so without `Array`'s per-append uniqueness check — a buffer the list owns
/// alone, grown by doubling, copied into an array once when the pass reports.
///
/// INVARIANTS: `buffer` is referenced only by this list (it is made in `init` and never handed
/// out; a pass's `PassLog` is not copied), so appending through a `let` never races; `count <=
/// capacity`, and the first `count` elements are initialized (asserted on each access in debug).
struct NodeList {
  private final class Buffer {
    var base: UnsafeMutablePointer<Int32>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
      self.capacity = max(16, capacity)
      base = .allocate(capacity: self.capacity)
    }

    @inline(never)
    func grow() {
      let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: base, count: count)
      base.deallocate()
      base = grown
      capacity *= 2
    }

    deinit { base.deallocate() }
  }

  private let buffer: Buffer

  /// An empty list with room for `capacity` nodes.
  init(capacity: Int = 0) { buffer = Buffer(capacity: capacity) }

  var count: Int { buffer.count }

  @inline(__always)
  func append(_ node: Int32) {
    let buffer = buffer
    if buffer.count == buffer.capacity { buffer.grow() }
    assert(buffer.count < buffer.capacity, "NodeList: appending past capacity")
    (buffer.base + buffer.count).initialize(to: node)
    buffer.count += 1
  }

  /// The nodes, in the order they were appended.
  var nodes: [Int32] {
    assert(buffer.count >= 0 && buffer.count <= buffer.capacity, "NodeList: count over capacity")
    return Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count))
  }
}
