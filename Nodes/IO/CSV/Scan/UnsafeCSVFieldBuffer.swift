// Invariants: see `UnsafeCSVFieldBuffer` (its storage, `capacity` slots of a trivial type,
// the first `count` set; deallocated once by its owner). `CSVField` only holds indices.

/// One field of a CSV record: where its content lies in the buffer.
struct CSVField {
  /// The content, without surrounding quotes: `start..<end`.
  var start: Int
  var end: Int
  /// Whether the field was quoted (quoted cells never match a null token).
  var quoted: Bool
  /// Whether the quoted content holds `""` escapes to collapse.
  var escaped: Bool
}

/// The fields of one record, in storage allocated once per parse and grown (rarely) by
/// doubling, so the scan appends without array bookkeeping.
///
/// Invariants: `storage` holds `capacity` initialized-or-not slots of a trivial type; the first
/// `count <= capacity` are the record's fields; the owner calls `deallocate()` exactly once.
struct UnsafeCSVFieldBuffer {
  private(set) var storage: UnsafeMutablePointer<CSVField>
  private(set) var capacity: Int
  /// The fields of the current record (stored).
  var count = 0
  /// The fields after them that were only counted (see `UnsafeCSVScanner.nextRecord`).
  var skipped = 0
  /// The record's width: its fields, stored or counted.
  var width: Int { count &+ skipped }

  init(capacity: Int) {
    self.capacity = max(capacity, 4)
    storage = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  mutating func append(_ field: CSVField) {
    if count == capacity { grow() }
    storage[count] = field
    count &+= 1
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<CSVField>.allocate(capacity: capacity * 2)
    larger.initialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity *= 2
  }

  /// Field `index` of the current record (`index < count`).
  @inline(__always)
  subscript(index: Int) -> CSVField {
    assert(index >= 0 && index < count, "field \(index) of \(count)")
    return storage[index]
  }

  /// The current record's fields as an array (for the header).
  var fields: [CSVField] { (0..<count).map { storage[$0] } }

  func deallocate() { storage.deallocate() }

  /// Checks the invariants (called in debug builds after each record).
  func _checkInvariants() {
    assert(capacity >= 4 && count >= 0 && count <= capacity, "field buffer: \(count) fields in \(capacity)")
  }
}
