#if canImport(Glibc)
import Glibc
#endif

/// The engine's hot per-node and per-edge storage: four flat, manually allocated columns
/// (node records, input sources, successors, value slots) that a pass reads and writes through
/// plain pointers — no uniqueness check, no bounds check, no retain per access.
///
/// INVARIANTS (checked by `EvaluationGraph._checkInvariants()` in debug; bounds by `assert`):
/// - Ownership: a storage is mutated only through an `EvaluationGraph` that holds the only
///   reference to it. Every mutating entry point of `EvaluationGraph` calls `makeUnique()`
///   first, which copies the storage if it is shared (copy-on-write, like `Array`), so a copied
///   `GraphEvaluator` never observes another's writes. That is why the class may be
///   `@unchecked Sendable`: a shared instance is only ever read.
/// - Stability: pointers taken at the start of a pass stay valid for the whole pass, because a
///   pass never appends (only edits between passes grow the columns).
/// - Ranges: `count <= capacity` for each column; every index stored in a record or an input
///   source is below the count of the column it points into.
/// - Elements are trivial (`BitwiseCopyable`): copying and freeing never run element code.
final class UnsafeGraphStorage: @unchecked Sendable {
  /// The columns, copied into a local by a pass (no class access per node).
  var columns = GraphColumns()

  var records: UnsafeColumn<NodeRecord> {
    get { columns.records }
    set { columns.records = newValue }
  }
  var inputSources: UnsafeColumn<Int32> {
    get { columns.inputSources }
    set { columns.inputSources = newValue }
  }
  var successors: UnsafeColumn<Int32> {
    get { columns.successors }
    set { columns.successors = newValue }
  }
  var slots: SlotColumn {
    get { columns.slots }
    set { columns.slots = newValue }
  }

  init() {}

  /// A deep copy (for copy-on-write).
  func copy() -> UnsafeGraphStorage {
    let copy = UnsafeGraphStorage()
    copy.records = records.copy()
    copy.inputSources = inputSources.copy()
    copy.successors = successors.copy()
    copy.slots = slots.copy()
    return copy
  }

  deinit {
    records.deallocate()
    inputSources.deallocate()
    successors.deallocate()
    slots.deallocate()
  }

  /// Bytes allocated by the four columns.
  var allocatedBytes: Int {
    records.allocatedBytes + inputSources.allocatedBytes + successors.allocatedBytes + slots.allocatedBytes
  }
}

/// The four columns of a graph's storage, by value: what a pass works on.
struct GraphColumns {
  var records = UnsafeColumn<NodeRecord>()
  var inputSources = UnsafeColumn<Int32>()
  var successors = UnsafeColumn<Int32>()
  var slots = SlotColumn()
}

/// The value slots as three parallel columns — payload bits, tags, owners — so the hot path
/// reads 8 + 1 bytes per input instead of a 16-byte slot (a smaller working set for the random
/// reads of inputs). Reads and writes whole `Slot`s like an `UnsafeColumn<Slot>` would.
struct SlotColumn {
  var bits = UnsafeColumn<UInt64>()
  var tags = UnsafeColumn<UInt8>()
  var owners = UnsafeColumn<Int32>()

  var count: Int { tags.count }
  var allocatedBytes: Int { bits.allocatedBytes + tags.allocatedBytes + owners.allocatedBytes }

  @inline(__always)
  subscript(index: Int) -> Slot {
    get { Slot(bits: bits[index], owner: owners[index], tag: tags[index]) }
    nonmutating set {
      bits[index] = newValue.bits
      tags[index] = newValue.tag
      owners[index] = newValue.owner
    }
  }

  mutating func append(_ slot: Slot) {
    bits.append(slot.bits)
    tags.append(slot.tag)
    owners.append(slot.owner)
  }

  mutating func append(repeating slot: Slot, count length: Int) {
    bits.append(repeating: slot.bits, count: length)
    tags.append(repeating: slot.tag, count: length)
    owners.append(repeating: slot.owner, count: length)
  }

  mutating func reserve(_ minimum: Int) {
    bits.reserve(minimum)
    tags.reserve(minimum)
    owners.reserve(minimum)
  }

  func copy() -> SlotColumn { SlotColumn(bits: bits.copy(), tags: tags.copy(), owners: owners.copy()) }

  func deallocate() {
    bits.deallocate()
    tags.deallocate()
    owners.deallocate()
  }
}

/// A growable run of trivial elements at a stable address until it grows. Not copy-on-write:
/// its owner (`UnsafeGraphStorage`) copies and frees it.
struct UnsafeColumn<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>?
  private(set) var count = 0
  private(set) var capacity = 0

  init() {}

  var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }

  @inline(__always)
  subscript(index: Int) -> Element {
    get {
      assert(index >= 0 && index < count, "UnsafeColumn index out of range")
      return base.unsafelyUnwrapped[index]
    }
    nonmutating set {
      assert(index >= 0 && index < count, "UnsafeColumn index out of range")
      base.unsafelyUnwrapped[index] = newValue
    }
  }

  /// The address of element `index`, to read or write single fields of a large element
  /// without copying all of it (a whole-record load right after a field was stored stalls
  /// store-to-load forwarding).
  @inline(__always)
  func address(_ index: Int) -> UnsafeMutablePointer<Element> {
    assert(index >= 0 && index < count, "UnsafeColumn index out of range")
    return base.unsafelyUnwrapped + index
  }

  mutating func append(_ element: Element) {
    if count == capacity { grow(to: Swift.max(16, capacity * 2)) }
    (base.unsafelyUnwrapped + count).initialize(to: element)
    count += 1
  }

  /// Appends `length` copies of `element`.
  mutating func append(repeating element: Element, count length: Int) {
    reserve(count + length)
    guard length > 0 else { return }
    (base.unsafelyUnwrapped + count).initialize(repeating: element, count: length)
    count += length
  }

  /// Makes room for `minimum` elements without another allocation (exactly `minimum` when it
  /// has to grow, so a graph built in one go holds no slack).
  mutating func reserve(_ minimum: Int) {
    if minimum > capacity { grow(to: minimum) }
  }

  func copy() -> UnsafeColumn {
    var copy = UnsafeColumn()
    copy.reserve(count)
    if count > 0 { copy.base.unsafelyUnwrapped.initialize(from: base.unsafelyUnwrapped, count: count) }
    copy.count = count
    return copy
  }

  func deallocate() {
    if let base { ColumnMemory.deallocate(base, capacity: capacity) }
  }

  private mutating func grow(to newCapacity: Int) {
    let grown = ColumnMemory.allocate(Element.self, capacity: newCapacity)
    if let base {
      grown.initialize(from: base, count: count)
      ColumnMemory.deallocate(base, capacity: capacity)
    }
    base = grown
    capacity = newCapacity
  }
}

/// Where columns live. A large column (at least `hugeThreshold` bytes, on Linux) is its own
/// anonymous mapping, 2 MB-aligned and advised to be backed by huge pages before anything
/// touches it: a pass over a million-node graph reads records and slots at random, and with
/// 4 KB pages most of those reads also miss the TLB. (Through `malloc`, a large block may come
/// from memory already faulted in small pages, and then the advice does nothing.) Smaller
/// columns, and every column elsewhere, use the ordinary allocator.
///
/// Sound because a column's capacity alone decides where it lives (a column is freed with the
/// capacity it was allocated with), a mapping is released whole (`munmap` of the rounded size
/// at the aligned base), and the advice changes no contents. A mapping that fails traps, as
/// the ordinary allocator does when it runs out of memory.
enum ColumnMemory {
  static let hugePage = 2 << 20
  static let hugeThreshold = 4 << 20

  static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
    #if os(Linux)
    let bytes = capacity * MemoryLayout<Element>.stride
    if bytes >= hugeThreshold {
      guard let mapped = map(rounded(bytes)) else { fatalError("out of memory: a column of \(bytes) bytes") }
      return mapped.bindMemory(to: Element.self, capacity: capacity)
    }
    #endif
    return UnsafeMutablePointer<Element>.allocate(capacity: capacity)
  }

  static func deallocate<Element>(_ base: UnsafeMutablePointer<Element>, capacity: Int) {
    #if os(Linux)
    let bytes = capacity * MemoryLayout<Element>.stride
    if bytes >= hugeThreshold {
      munmap(UnsafeMutableRawPointer(base), rounded(bytes))
      return
    }
    #endif
    base.deallocate()
  }

  /// `bytes` rounded up to whole huge pages.
  static func rounded(_ bytes: Int) -> Int { (bytes + hugePage - 1) & ~(hugePage - 1) }

  #if os(Linux)
  /// A fresh anonymous mapping of `size` bytes (whole huge pages) at a huge-page boundary,
  /// advised to use huge pages (zero-filled; every column initializes what it uses anyway);
  /// `nil` if the system refuses it.
  private static func map(_ size: Int) -> UnsafeMutableRawPointer? {
    // Over-map by one huge page, then give back the unaligned head and the tail.
    let span = size + hugePage
    guard let raw = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      raw != MAP_FAILED
    else { return nil }
    let start = (Int(bitPattern: raw) + hugePage - 1) & ~(hugePage - 1)
    let head = start - Int(bitPattern: raw)
    if head > 0 { munmap(raw, head) }
    let tail = span - head - size
    let aligned = raw + head
    if tail > 0 { munmap(aligned + size, tail) }
    _ = madvise(aligned, size, MADV_HUGEPAGE)
    return aligned
  }

  #endif
}
