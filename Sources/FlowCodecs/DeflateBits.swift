// The bit writer and match finder of `Deflate`.

/// Writes bits from the least significant bit of each byte, as DEFLATE packs them.
///
/// Invariant: `buffer` holds `count` (< 8 between writes) bits not yet in `output`.
struct DeflateBits {
  var output: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  /// Appends the low `length` (≤ 32) bits of `bits`, first bit lowest.
  @inline(__always) mutating func write(_ bits: UInt64, _ length: Int) {
    buffer |= bits << UInt64(count)
    count += length
    while count >= 8 {
      output.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// Writes the last partial byte (zero-padded).
  mutating func flush() {
    if count > 0 { output.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    count = 0
  }
}

/// Finds LZ77 matches: hash chains of 3-byte prefixes over the last 32 KiB.
///
/// Invariants: `head[h]` is 1 + the last inserted position whose 3 bytes hash to `h` (0: none);
/// `previous[p % window]` is 1 + the position inserted before `p` with the same hash. Positions
/// are inserted in increasing order, so a chain only goes back; it is cut at the window's edge
/// and after `chainLimit` steps (bounded work per position, never quadratic).
struct DeflateMatcher {
  static let window = 32_768
  static let chainLimit = 48
  static let hashBits = 15
  let input: [UInt8]
  private var head: [Int32]
  private var previous: [Int32]

  init(_ input: [UInt8]) {
    self.input = input
    head = [Int32](repeating: 0, count: 1 << Self.hashBits)
    previous = [Int32](repeating: 0, count: Self.window)
  }

  @inline(__always) private func hash(at position: Int) -> Int {
    let value = Int(input[position]) << 16 | Int(input[position + 1]) << 8 | Int(input[position + 2])
    return (value &* 0x9E37_79B1) >> (32 - Self.hashBits) & ((1 << Self.hashBits) - 1)
  }

  mutating func insert(_ position: Int) {
    guard position + 2 < input.count else { return }
    let key = hash(at: position)
    previous[position % Self.window] = head[key]
    head[key] = Int32(truncatingIfNeeded: position + 1)
  }

  /// The longest earlier match of at least 3 bytes for the bytes at `position`.
  func longestMatch(at position: Int) -> (length: Int, distance: Int)? {
    guard position + 2 < input.count else { return nil }
    let maximum = min(258, input.count - position)
    var candidate = Int(head[hash(at: position)]) - 1
    var best = 2
    var bestDistance = 0
    var steps = 0
    while candidate >= 0, position - candidate <= Self.window, steps < Self.chainLimit {
      if input[candidate + best] == input[position + best] {
        var length = 0
        while length < maximum, input[candidate + length] == input[position + length] { length += 1 }
        if length > best {
          best = length
          bestDistance = position - candidate
          if length == maximum { break }
        }
      }
      let next = Int(previous[candidate % Self.window]) - 1
      guard next < candidate else { break }
      candidate = next
      steps += 1
    }
    return best >= 3 ? (best, bestDistance) : nil
  }
}
