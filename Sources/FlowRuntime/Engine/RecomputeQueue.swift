/// The nodes waiting to be recomputed in a pass, popped in increasing topological position.
///
/// Two representations, because no single one wins (measured by `flow-bench` W1–W3; see `Documentation/Performance.md`):
/// - a binary min-heap of positions while the queue is small: O(log *k*) per operation, no
///   cost for the positions in between (a 2-node update in a 100k graph pops in ~20 ns);
/// - a bitset over all positions once the heap holds more than `heapLimit` entries:
///   O(1) push, and pops scan forward from a cursor a 64-bit word at a time, which for big
///   changes costs ~1 ns per node instead of a heap's ~50.
///
/// A lone queued position waits in `single` instead of the heap, so a chain (push one, pop
/// one) never touches the heap's array.
///
/// Invariants: a position is in the queue at most once (callers dedupe with a per-node stamp,
/// or rely on the bit in bitset mode);
/// in bitset mode, no bit below `cursor` is set and `bitCount` is the number of set bits.
struct RecomputeQueue {
  private var heap: [Int32] = []
  /// The only queued position while the heap is empty and not in bitset mode, or -1.
  private var single: Int32 = -1
  private var bits: [UInt64] = []
  private var usesBits = false
  private var cursor = 0
  private var bitCount = 0
  /// The heap size above which the queue switches to the bitset (until it next runs empty).
  let heapLimit: Int

  init(capacity: Int, heapLimit: Int = 128) {
    self.heapLimit = heapLimit
    heap.reserveCapacity(heapLimit + 1)
    ensureCapacity(capacity)
  }

  /// Bytes the queue's buffers hold.
  var allocatedBytes: Int { heap.capacity * 4 + bits.capacity * 8 }

  var isEmpty: Bool { usesBits ? bitCount == 0 : heap.isEmpty && single < 0 }

  /// Switches an empty queue to bitset mode, for a caller about to queue many positions.
  mutating func beginBitset() {
    precondition(isEmpty, "Internal inconsistency: switching a non-empty queue to a bitset")
    usesBits = true
    cursor = Int.max
  }

  /// Queues, on an empty queue, every label `label` where `nodeAt[label] != hole` (bitset mode):
  /// a word at a time.
  mutating func pushAll(labelsOf nodeAt: [Int32], hole: Int32) {
    precondition(isEmpty, "Internal inconsistency: filling a non-empty queue")
    ensureCapacity(nodeAt.count)
    usesBits = true
    cursor = 0
    bitCount = 0
    var start = 0
    while start < nodeAt.count {
      var mask: UInt64 = 0
      for label in start..<min(nodeAt.count, start + 64) where nodeAt[label] != hole {
        mask |= 1 << UInt64(label & 63)
      }
      bits[start >> 6] = mask
      bitCount += mask.nonzeroBitCount
      start += 64
    }
    if bitCount == 0 { usesBits = false }
  }

  /// Queues `position` in bitset mode, where pushing a queued position is harmless (its bit is
  /// already set), so callers need not deduplicate.
  @inline(__always)
  mutating func pushBit(_ position: Int32) {
    assert(usesBits)
    setBit(Int(position))
  }

  /// Makes room for positions below `capacity`.
  mutating func ensureCapacity(_ capacity: Int) {
    let words = (capacity + 63) >> 6
    if bits.count < words { bits.append(contentsOf: repeatElement(0, count: words - bits.count)) }
  }

  mutating func push(_ position: Int32) {
    if usesBits {
      setBit(Int(position))
      return
    }
    if heap.isEmpty {
      if single < 0 {
        single = position
        return
      }
      heap.append(single)
      single = -1
    }
    heap.append(position)
    siftUp(heap.count - 1)
    if heap.count > heapLimit { switchToBits() }
  }

  /// Removes and returns the smallest queued position.
  @inline(__always)
  mutating func popMin() -> Int32? {
    if single >= 0 {
      let position = single
      single = -1
      return position
    }
    if !usesBits { return popHeap() }
    return popBit()
  }

  /// `popMin` in bitset mode.
  @inline(__always)
  private mutating func popBit() -> Int32? {
    guard bitCount > 0 else {
      usesBits = false
      return nil
    }
    var word = cursor >> 6
    var bitsHere = bits[word] & (~0 << UInt64(cursor & 63))
    while bitsHere == 0 {
      word += 1
      bitsHere = bits[word]
    }
    let position = word << 6 | bitsHere.trailingZeroBitCount
    bits[word] &= ~(1 << UInt64(position & 63))
    bitCount -= 1
    cursor = position
    if bitCount == 0 { usesBits = false }
    return Int32(position)
  }

  private mutating func setBit(_ position: Int) {
    let mask: UInt64 = 1 << UInt64(position & 63)
    if bits[position >> 6] & mask == 0 {
      bits[position >> 6] |= mask
      bitCount += 1
      if position < cursor { cursor = position }
    }
  }

  private mutating func switchToBits() {
    usesBits = true
    cursor = Int.max
    for position in heap { setBit(Int(position)) }
    heap.removeAll(keepingCapacity: true)
  }

  @inline(never)
  private mutating func popHeap() -> Int32? {
    guard let last = heap.popLast() else { return nil }
    guard !heap.isEmpty else { return last }
    let top = heap[0]
    heap[0] = last
    siftDown(0)
    return top
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    let value = heap[child]
    while child > 0 {
      let parent = (child - 1) >> 1
      if heap[parent] <= value { break }
      heap[child] = heap[parent]
      child = parent
    }
    heap[child] = value
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let count = heap.count
    let value = heap[parent]
    while true {
      var child = 2 * parent + 1
      if child >= count { break }
      if child + 1 < count && heap[child + 1] < heap[child] { child += 1 }
      if heap[child] >= value { break }
      heap[parent] = heap[child]
      parent = child
    }
    heap[parent] = value
  }
}
