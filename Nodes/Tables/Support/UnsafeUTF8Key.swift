/// A string cell's UTF-8 bytes as a hash key, for grouping and joining string columns.
///
/// Two keys are equal exactly when their bytes are — that is, when the strings have the same
/// Unicode scalars (SPEC: strings compare by Unicode scalar values), not Swift's canonical
/// equivalence, under which a precomposed "é" equals "e" + U+0301 and would merge groups that
/// `filter`'s `==` keeps apart. It hashes the bytes in one call and never builds a `String`.
///
/// Invariants: the only unsafe access is `withUnsafeBytes` on the slice, read for the
/// duration of the call and never escaped.
struct UTF8Key: Hashable {
  let bytes: ArraySlice<UInt8>

  init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

  static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }

  func hash(into hasher: inout Hasher) {
    hasher.combine(bytes.count)
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }
}
