/// The nodes a pass lists as it goes (those that ran, those cut off): appended to once per node
/// on the hot path, so without `Array`'s per-append uniqueness check — a buffer the list owns
/// alone, grown by doubling, copied into an array once when the pass reports.
///
/// An evaluator keeps its two lists between passes so that a small pass allocates nothing; a
/// pass starts by `reset`, which reuses the buffer only when no copy of the evaluator shares it.
///
/// INVARIANTS: while a pass appends, its buffer is referenced only by the evaluator running the
/// pass and that pass's `PassLog` (`reset` replaced a buffer another evaluator copy shared), so
/// appending through a `let` never races; `count <= capacity`, and the first `count` elements
/// are initialized (asserted on each access in debug). `@unchecked Sendable` for the evaluator
/// that holds the lists: copies of an evaluator sent to other threads may share a buffer, but
/// no buffer is written unless `reset` found it held by one list alone (the reference count is
/// atomic, so two copies resetting at once both see it shared, or one sees it released by the
/// other), and a shared buffer is only read.
struct NodeList: @unchecked Sendable {
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

  private var buffer: Buffer

  /// An empty list with room for `capacity` nodes.
  init(capacity: Int = 0) { buffer = Buffer(capacity: capacity) }

  /// Empties the list for a new pass: keeps the buffer if this list alone holds it, it is small
  /// and it has room for `expected` nodes; or else starts a new one with room for them.
  mutating func reset(expecting expected: Int) {
    if isKnownUniquelyReferenced(&buffer) && buffer.capacity >= expected && buffer.capacity <= Self.keptCapacity {
      buffer.count = 0
    } else {
      buffer = Buffer(capacity: expected)
    }
  }

  /// Lets go of a big buffer once its pass reported (`keptCapacity`).
  mutating func releaseIfLarge() {
    if buffer.capacity > Self.keptCapacity { buffer = Buffer(capacity: 0) }
  }

  /// The largest buffer kept between passes (a big pass allocates its own).
  static let keptCapacity = 4_096

  /// Bytes held by the buffer.
  var allocatedBytes: Int { buffer.capacity * MemoryLayout<Int32>.stride }

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
