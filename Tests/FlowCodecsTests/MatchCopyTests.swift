import FlowTestSupport
import Testing
@testable import FlowCodecs

/// `UnsafeMatchCopy`, the bulk copy of the LZ77 decoders, against the byte-at-a-time copy it
/// replaces: random outputs, distances (1 to all of it, the short periods overlapping most) and
/// lengths (0 to past the output), into arrays with and without room reserved; and `Snappy`
/// against a byte-at-a-time decoder over random and mutated blocks (the same bytes, or both
/// refuse).
@Suite struct MatchCopyTests {
  @Test(arguments: 0..<40) func aMatchAppendsWhatOneByteAtATimeWould(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    var output = (0..<Int(random.next() % 300) + 1).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    var expected = output
    if seed % 2 == 0 { output.reserveCapacity(output.count + 10_000) }
    for _ in 0..<30 {
      let distance =
        random.next() % 3 == 0
        ? Int(random.next() % 8) % output.count + 1 : Int(random.next() % UInt64(output.count)) + 1
      let length = [0, 1, 3, 4, 7, 8, 9, 16, 31, 64, 65, 200, 1_000][Int(random.next() % 13)]
      UnsafeMatchCopy.append(&output, distance: distance, length: length)
      let start = expected.count - distance
      for index in 0..<length { expected.append(expected[start + index]) }
      #expect(output == expected, "distance \(distance), length \(length)")
      if output != expected { return }
    }
  }

  /// A Snappy decoder that copies one byte at a time, or `nil` for a block it refuses.
  static func reference(_ input: [UInt8], limit: Int) -> [UInt8]? {
    var position = 0
    var length = 0
    var shift = 0
    while true {
      guard position < input.count, shift <= 28 else { return nil }
      length |= Int(input[position] & 0x7F) << shift
      shift += 7
      position += 1
      if input[position - 1] & 0x80 == 0 { break }
    }
    guard length <= limit else { return nil }
    var output: [UInt8] = []
    while position < input.count {
      let tag = input[position]
      position += 1
      var count: Int
      var offset = 0
      switch tag & 3 {
      case 0:
        count = Int(tag >> 2)
        if count >= 60 {
          let extra = count - 59
          guard input.count - position >= extra else { return nil }
          count = 0
          for index in 0..<extra { count |= Int(input[position + index]) << (8 * index) }
          position += extra
        }
        count += 1
        guard input.count - position >= count, output.count + count <= length else { return nil }
        output += input[position..<position + count]
        position += count
        continue
      case 1:
        guard position < input.count else { return nil }
        count = 4 + Int((tag >> 2) & 7)
        offset = Int(tag >> 5) << 8 | Int(input[position])
        position += 1
      case 2:
        guard input.count - position >= 2 else { return nil }
        count = 1 + Int(tag >> 2)
        offset = Int(input[position]) | Int(input[position + 1]) << 8
        position += 2
      default:
        guard input.count - position >= 4 else { return nil }
        count = 1 + Int(tag >> 2)
        for index in 0..<4 { offset |= Int(input[position + index]) << (8 * index) }
        position += 4
      }
      guard offset > 0, offset <= output.count, output.count + count <= length else { return nil }
      for _ in 0..<count { output.append(output[output.count - offset]) }
    }
    return output.count == length ? output : nil
  }

  @Test(arguments: 0..<30) func snappyAgreesWithAByteAtATimeDecoder(seed: Int) {
    var random = SeededRandom(seed: UInt64(500 + seed))
    var data: [UInt8] = []
    while data.count < 3_000 {
      if random.next() % 3 == 0, !data.isEmpty {
        let from = Int(random.next() % UInt64(data.count))
        data += data[from..<min(data.count, from + Int(random.next() % 80) + 1)]
      } else {
        data += (0..<Int(random.next() % 20) + 1).map { _ in UInt8(random.next() % 4) }
      }
    }
    let block = Snappy.compress(data)
    #expect(Self.reference(block, limit: 1 << 20) == data)
    #expect((try? Snappy.decompress(block, limit: 1 << 20)) == data)
    for _ in 0..<60 {
      var mutated = block
      for _ in 0..<Int(random.next() % 3) + 1 {
        let at = Int(random.next() % UInt64(mutated.count))
        if random.next() % 4 == 0 {
          mutated.remove(at: at)
        } else {
          mutated[at] = UInt8(truncatingIfNeeded: random.next())
        }
        if mutated.isEmpty { mutated = [0] }
      }
      let ours = try? Snappy.decompress(mutated, limit: 1 << 20)
      #expect(ours == Self.reference(mutated, limit: 1 << 20))
    }
  }

  /// Random elements of every form — literals of 1 to 70 bytes (lengths in the tag and in 1 to
  /// 4 bytes after it), copies with 1-, 2- and 4-byte offsets from 1 (overlapping) to all of
  /// the output and lengths 1 to 64 — near the output's end too, where the decoder's 16-byte
  /// word moves have no room: ours agrees with the byte-at-a-time decoder, and so it does on
  /// the blocks with a byte changed.
  @Test(arguments: 0..<40) func snappyElementsOfEveryFormAgree(seed: Int) {
    var random = SeededRandom(seed: UInt64(900 + seed))
    var elements: [UInt8] = []
    var written = 0
    for _ in 0..<Int(random.next() % 60) + 1 {
      if written == 0 || random.next() % 3 == 0 {
        let count = Int(random.next() % 70) + 1
        if count <= 60, random.next() % 2 == 0 {
          elements.append(UInt8((count - 1) << 2))
        } else {
          let extra = Int(random.next() % 4) + 1
          elements.append(UInt8((59 + extra) << 2))
          for index in 0..<extra { elements.append(UInt8(truncatingIfNeeded: (count - 1) >> (8 * index))) }
        }
        elements += (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        written += count
      } else {
        let offset =
          random.next() % 2 == 0
          ? Int(random.next() % UInt64(min(written, 12))) + 1 : Int(random.next() % UInt64(written)) + 1
        let form = offset < 2_048 ? Int(random.next() % 3) + 1 : Int(random.next() % 2) + 2
        var count = Int(random.next() % 64) + 1
        if form == 1 { count = Int(random.next() % 8) + 4 }
        switch form {
        case 1: elements += [UInt8(1 | (count - 4) << 2 | (offset >> 8) << 5), UInt8(offset & 0xFF)]
        case 2: elements += [UInt8(2 | (count - 1) << 2), UInt8(offset & 0xFF), UInt8(offset >> 8)]
        default:
          elements.append(UInt8(3 | (count - 1) << 2))
          for index in 0..<4 { elements.append(UInt8(truncatingIfNeeded: offset >> (8 * index))) }
        }
        written += count
      }
    }
    var header: [UInt8] = []
    var length = written
    while length >= 0x80 {
      header.append(UInt8(length & 0x7F | 0x80))
      length >>= 7
    }
    header.append(UInt8(length))
    let block = header + elements
    let expected = Self.reference(block, limit: 1 << 20)
    #expect(expected?.count == written)
    #expect((try? Snappy.decompress(block, limit: 1 << 20)) == expected)
    for _ in 0..<40 {
      var mutated = block
      mutated[Int(random.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: random.next())
      #expect((try? Snappy.decompress(mutated, limit: 1 << 20)) == Self.reference(mutated, limit: 1 << 20))
    }
  }
}
