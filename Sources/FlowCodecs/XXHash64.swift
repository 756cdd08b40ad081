/// XXH64 (seed 0), the hash of Zstandard's content checksum (RFC 8878 §3.1.1: the low 32 bits
/// of the XXH64 of the frame's content).
///
/// Invariants: 32-byte stripes in four lanes, then 8-, 4- and 1-byte tails, all little-endian;
/// arithmetic wraps (`&+`, `&*`) as the algorithm's does; reads stay inside `bytes`.
enum XXHash64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The XXH64 of `bytes`.
  static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var position = bytes.startIndex
    let end = bytes.endIndex
    var hash: UInt64
    if bytes.count >= 32 {
      var lanes: [UInt64] = [prime1 &+ prime2, prime2, 0, 0 &- prime1]
      while end - position >= 32 {
        for lane in 0..<4 { lanes[lane] = round(lanes[lane], load(bytes, position + 8 * lane, 8)) }
        position += 32
      }
      hash = rotate(lanes[0], 1) &+ rotate(lanes[1], 7) &+ rotate(lanes[2], 12) &+ rotate(lanes[3], 18)
      for lane in lanes { hash = (hash ^ round(0, lane)) &* prime1 &+ prime4 }
    } else {
      hash = prime5
    }
    hash &+= UInt64(bytes.count)
    while end - position >= 8 {
      hash = rotate(hash ^ round(0, load(bytes, position, 8)), 27) &* prime1 &+ prime4
      position += 8
    }
    if end - position >= 4 {
      hash = rotate(hash ^ (load(bytes, position, 4) &* prime1), 23) &* prime2 &+ prime3
      position += 4
    }
    while position < end {
      hash = rotate(hash ^ (UInt64(bytes[position]) &* prime5), 11) &* prime1
      position += 1
    }
    hash ^= hash >> 33
    hash &*= prime2
    hash ^= hash >> 29
    hash &*= prime3
    return hash ^ (hash >> 32)
  }

  static func hash(_ bytes: [UInt8]) -> UInt64 { hash(bytes[...]) }

  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 { value << count | value >> (64 - count) }

  private static func load(_ bytes: ArraySlice<UInt8>, _ at: Int, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(bytes[at + index]) << UInt64(8 * index) }
    return value
  }
}
