/// `StringColumn` equality and hashing by value: the same strings in the same order, whatever
/// the layouts (a dictionary column equals the flat column of its strings).
extension StringColumn: Hashable {
  public static func == (a: StringColumn, b: StringColumn) -> Bool {
    guard a.count == b.count else { return false }
    switch (a.storedCodes, b.storedCodes) {
    case (nil, nil):
      return a.storedOffsets == b.storedOffsets && a.storedBytes == b.storedBytes
    case (let x?, let y?) where a.storedBytes == b.storedBytes && a.storedOffsets == b.storedOffsets:
      return x == y
    default:
      for row in 0..<a.count where !a.utf8(row).elementsEqual(b.utf8(row)) { return false }
      return true
    }
  }

  /// Hashes the count and each string's length and bytes (the same for both layouts).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for row in 0..<count {
      let bytes = utf8(row)
      hasher.combine(bytes.count)
      for byte in bytes { hasher.combine(byte) }
    }
  }
}
