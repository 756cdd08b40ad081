import FlowCodecs
import FlowTestSupport
import Foundation
import Testing

/// Zstandard frames written by `cramjam` 2.14 (the reference zstd library): levels 1 and 19
/// (Huffman literals in one and four streams, FSE-described and predefined tables, repeat
/// offsets), a 214 KiB input in several blocks, concatenated and skippable frames, and mutated
/// streams that must throw or decode within their bound, never trap.
@Suite struct ZstdTests {
  /// `zstd.compress(text[:2400], level=1)` and `zstd.compress(text, level=19)` of
  /// `CodecVectorTests.text`.
  static let zstdLevel1 =
    "KLUv/WBgCLUVAHauYRKAGeQBGJXSY9xIkiTMQ5kA2mFjAF4AVwBDQsaQvfckwyB6q6EUCJJ3ykEgeGPJICB33+22uYwhddeZDIPQTf99vRwEMve8TgYBWe8KQYCoFUnGkHSiDIOg8UIKBDmflRwEYrZFGQSkXCkIEDKRyRhyf8RH1IdkSMgwyARo5iFh3pvVzpwqzJhkPkKzmevKTJPlvzwvK+9FWfHl/JVxLso3VLa9ck2ZpqRAkCV/UA4CUbImOccEAYJkvJQx5MhXl2EQIxupSYEgRS66kINAiEwnGQTk5J8gQIYcLks1DV39SVPrhTpJjXfqS6E2pXQVpil9wkoPPdP7tJqlU6TxTx9dCnQdoWkQ/aPnVehVRCs6b2jERJ8dbWvnGnGmofMn76zinFNnpKvznU3rXJVn+s2ndiEFguzvnN+I9/tQ/Lal32X4m+b3J+u3Uv7O+W88m/tobqO5q25uWjH3ae6h49w7t1rNnYtz49dHtrav676mufVPtp5XrVdprWNf53zWOLjqU9uWBoDSqHEYFGuUtNo3MEMRGfkQYiIBcY0Bqwc3/rVxiw0e18C9GrlZxZr5qcljmrnRzP2ZHzr0jDLy4RQZsycxdxlmpzev+AI/L9hhXvDqgia5SP2yrOrSQj1epsziInzhbnxF76FbxC2mya961NQYz+Bc0LHmlm+EuUGoujqilp2qDS4TcyHzy7nWpb3qJuEiL8ygoi0t4BhVi6RDdWWxfBPb12O1oEt9qCmJJMYF1yp7yzYvWz4uYKYWB3Oa/KhDTS3IhnFBpvnegjNJPHMVIRlaZEQNWktxIfml4jK/LZtL0Sx2YnHjigFdVIWs8jBFRikodOKk2P4gkgxiN29sDVL+qbhCTQb+OYqrX4mfTqlKNHH8z7H/Pj1PYxpxs8YDKj8f/ige9ubzy0M376s="

  static let zstdLevel19 =
    "KLUv/WBnH8UtALpGkAgWYClJ0galcObVKUBEmZTpr0IQdDVYAZEAfAB9AOe/x8vk8W1XXNNzwyUkIxMLiVQoUgmMaad7V3dBS9ZrEG1xTgzkYZiQM9xjBnfCICQpQ7mADBzHsDsYgg9qoYq0QPJZGH7hUy+YsiCxQEBAoAudhQucLWy0WIjVFaoCCnROmP3hCwIFIEDAwdLAAQQQkCD1wAACEGjoBA6AAAMpgYCAwMIiWARdMBAMAgEGCEQfj0xnnE1MnT7//cvZ87THyyePb1tc053DJSQduVhEKhSahFTbxrTStewaLZrlys05TjgPN064BRs3b8EPNm7ftm6cbZvEFsRijgVWEGPsEWusHquiYjD1skuqxZJVVBHRkJxMQiWSRhNUQzPzmUemw9nE1Omf8/dDkbwBREMnMQmVSCMJqqGZ4cczMh3OJmZ1+vz35T3/nfEykcf3bXFNz+GSkoxcLBWpUCYhVaJOX1ca07LrokXiApKkyZLlnCSFnnGjjAtGjh4DPRg5fhwbDOUEF5TggmDQwWJwwQiuiqqmXi4GUi2zVlFFQjR0MglJiTQKYg3NzARVVFP1ckmtxapVVBEDoiGfTEIlIY2Camhk5uORYYczm5g6fb7fl/f8Hi+fzPFNtrg+PYdLSEYutYhUKJ2EVKnTl1xpy64x0SJxATvW7AKWrNmyZQPn6yrzrFtlXbBy9YOV0UejjYZzogtLdEE06mhVUU3t5SqpFovBKspFAYMZqELCfKJKhn0D4vGFRGCIAK8DImi4DCFAMALE9gFRBGhBd28aCnnl9/5QAtaJGJ9EZcMnUULafTmUEHPmDHrew5N3wgGD+l2HSjyUTiPQGXj4hHuvE4ZOnCdHWsS1RxlDyV4qKGCm4CzxY9y3CaGcZEmKgxX0qkJBoYF6G0ocQMU7eUoGu/78ooPCZ4rkwideZli8xzvhRVQ9WXwoi5/hE6Jc5D2CHg8lF9MB8LCstjjJ7jTyzCdMDMVIj68dwZZ4TxVl9Fi8CIr0ea6Nn3woT/jkbEPhRDZEDqhowoJtT4qC9SgtKD2PSSihE5F9T0NoTpx6QjgVn/L6Bey6oNRUN5/UfJwLnZMOVKt2dhXoUDo0ETfRxpXW9U64irWfHO0irTWKSB7UOVBAmJdzCA03vCaEdoLRU5wpQNcNBQ1L1lkA4gDH7+RDjvT5jq8XCh9dZDc+cf3h5p7nhEeM6olmKL4bimJg5gO+GopOKTfwdH9SonZi4OP5lqfyZFagQIw23wDBQ+xRUVoPR2yhMMMiRMO1PO0TV0OpWqWcQhd7tCitByu68Dw+oUSqs8FLA3VPHxcnxXhylQqfVzCCmVRQcFJBhWRQAV/XCQIt8jQdrngoPYsgZfIgG65eJxw4WJ6M9HFvHOWGKr3EoNhUwUnER7hnEwU5uYJ1Ny/YW4UCwgr0MvYoMAl3MqlITfX5TQdFzyVOVZ+4xJDwHu+EukrrSa5nhdLtYYN7cxQJBc/Weze9FUrNPArKWzn3EyB3nib+K/7eTpkJ1bHG6exL7JyoEipHJoFwtkfMTdbIsjZZmQ1qiK/JC6HpXnMHETV3dZoEyEEj/tGcAT5kmZwHx5hth49iSDwMhkN/wd8Y/3bpnV5saEQXFs0lmzFjFbVifUTHoNIA6R8P3hZ/ta2VQctFWNAjpnQ0aB6PVYAPXGANJ4OWjiFnhCcgS1ujjn9femnkzIzisNq2GPeAJECGWqpCrW+949Oo2To+OYn2yOeTkaaK8PWp57001qY5WddcS/cZQNoH0Z4M7ZfREmds7rs5aBC4DDUsM5zGD58sY2DRitGvYBikpouG2UIHZaGxqehTx0sRIt+pONNEfzP2WObbjH+a0OaDiLaWp2U+zdin0B5Iyzr1n2vGHnhNW3qTZd4PWME+ld3JEICZU0N0zfLuOIK2XWRoH2mdvm8d+odYp+4rmcN8gOJDuT5tm7haAQ=="

  /// `zstd.compress(big, level=3)` of `ZstdTests.big`.
  static let zstdBig =
    "KLUv/aACWAMAFCYANjx6HKAZMhxzVVVtbPYtKa357S6Ag6VMKaUUz/6bJg9wAHUAawDbtkmSJEkRERERMXKX04IFAg4MAGZmZkZERERE5P///7dt27bbtm1bkiRJctu2bZMkSZIiIiIiYuQuJwcGBgwAZmZmRkRERETk////t23bttu2bVuSJEly27ZtkyRJkiIiIiJi5C6nKAhAwECBgAFAbduSJEmS27ZtmyRJkhQRERExhQeDFB4MLzwYXHgwtPBgYOHBsMKDQYUHQxQeDABmZmZGREREROT///+3bdu227ZtW5IkSXLbtm2TJEmSIiIiImLkLicFBgoMAGZmZkZERERE5P///7dt27bbtm1bkiRJctsCMzMzIiIiIiL///+/bdu23bZt25IkSZLbtm2bJEmSFBEREREjdzlFIUKECAOAmZmZERERERH5////bdu27bZt25YkSZLctm3bJEmSpIiIiIgYucspChAgDABmZmZGREREROT///+3bdu22zaFIaIwTGGQwvDC4MLQwsDCsMKgwhCFAcDMzMyIiIiIiPz///+2bdt227ZtS5IkSW7btm2SJElSRERERIzc5RQFcQAwMzMzIiIiIiL///+/bdu23bZt25IkSZLbtm2bJEmSFBEREREjdzlFAQGBBA0kTAgwAJiDtqjiuCdJCoW9DnKOJCgp0BoDEmCTcSB42v7//58BNuSp2woa2ups2rq+2gpgba8/xoGVHaxTWPqwtolVFgs3lvexSGTtyWorq7ksnFnuZi2dlT+LDS1ntHBpvadVUqteLba1zGvNsdXOFqkt+7bY3Dq7lXur+1skuPRwbYurHBdOLu9ykebaz9VGVzNduLrc61qyK28X213Od+HweserlFd9Xmx6mfWa26t9LxJf9nyx9XXuK+dXd79If+n/ug1Ay4AQFzjeA5QkCPeC0zagzYMQRzjuBLpUCPOFw2agzoYQdzjvB1pChPWIw5agRk6EQ7cipAA5mUIDYmAlBUjhFBEQg0ksIAy2UIAkTCIDUjDV7+O93cs9bI/2yl7sY9fTenkVWQMiycLFgsWIpYmLSYsVSxMXk5YuFi0uLS1cLFpcWLq4mLR4sTRxMWmxkbgNt3zbbkvbZlusbbUlaTvQWttu22y27WgLauKqOSEXzZN4aZ6kS/NUVpVL8qJ8UhfNablKnsRL8aRdGqfyqtxQ0kLaRxejVXSI/tBEaCVoA1GDYo7ss4kORMGSCpGHTSxSRtbQgJpcUZFysEUFxeQaGWjDnF/yJb3Ii3aBLuQiXPRb0vYpum4AYZzGEYZbeKHZSq0Yb+MM5y280DylV4zXcYOzFs3VEi2cxbIQy7DklbpCWpGsPN/zEXc/Hoq3U1XMNxfK3UoHt+NDcXexob2OLs5FW6CFWYAFV2yFqaJGrYDrlYltkothkgvB1UUG92JCMjOJQe1wINpMVDBeHAhXcKfi1KZqaqbBlEu1NKr0oVYA9crANjlT4PoKRwIsbw4LsN40FmC9clzA8uayAOtNYwHWN0cFbG8OC7DeFJuGkmqkgBSP1lHXaBllFl3hORFXCSRJfMLasPLkQpm7qeF+eCiubja0HxeFm2st7Je4m3DKpmoqU2D6pVoaVXpSK4B6ZWCjkSS0TQAACHgBAP5XORAC"

  /// 30,000 lines `i % 97,word` (219,138 bytes: several blocks).
  static let big: [UInt8] = {
    let words = ["alpha", "beta", "gamma", "delta", "x", "yy", "zzz", "Zürich", "42", ""]
    return Array((0..<30_000).map { "\($0 % 97),\(words[($0 / 97) % 10])\n" }.joined().utf8)
  }()

  @Test func referenceFramesDecode() throws {
    let text = CodecVectorTests.text
    #expect(
      try Zstd.decompress(CodecVectorTests.bytes(Self.zstdLevel1)[...], limit: 1 << 20) == Array(text.prefix(2_400)))
    #expect(try Zstd.decompress(CodecVectorTests.bytes(Self.zstdLevel19)[...], limit: 1 << 20) == text)
    var crc = CRC32()
    crc.update(Self.big)
    #expect(crc.value == 0xCA16_2DBB, "the lines are the ones Python compressed")
    #expect(try Zstd.decompress(CodecVectorTests.bytes(Self.zstdBig)[...], limit: 1 << 20) == Self.big)
  }

  @Test func concatenatedAndSkippableFramesDecode() throws {
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]
    let frames = CodecVectorTests.bytes(Self.zstdLevel1) + skippable + CodecVectorTests.bytes(Self.zstdLevel19)
    #expect(
      try Zstd.decompress(frames[...], limit: 1 << 20) == Array(CodecVectorTests.text.prefix(2_400))
        + CodecVectorTests.text)
  }

  /// A stream read in place inside a larger buffer decodes as its copy does, whatever lies
  /// around it, and its messages count bytes from its start.
  @Test func aStreamInsideABufferIsReadInPlace() throws {
    let frame = CodecVectorTests.bytes(Self.zstdLevel19)
    let buffer = Array(repeating: 0xFF, count: 37) + frame + Array(repeating: 0x28, count: 19)
    let range = 37..<37 + frame.count
    #expect(try Zstd.decompress(buffer, in: range, limit: 1 << 20) == CodecVectorTests.text)
    #expect(try Zstd.decompress(buffer[range], limit: 1 << 20) == CodecVectorTests.text)
    #expect(throws: CodecError("no Zstandard frame at byte 0")) {
      try Zstd.decompress(buffer, in: 36..<37 + frame.count, limit: 1 << 20)
    }
    #expect(throws: CodecError("a Zstandard frame header ends early (at byte \(frame.count))")) {
      try Zstd.decompress(buffer, in: 37..<40 + frame.count, limit: 1 << 20)
    }
    for cut in [5, frame.count / 2, frame.count - 1] {
      #expect(throws: CodecError.self) { try Zstd.decompress(buffer, in: 37..<37 + cut, limit: 1 << 20) }
    }
  }

  @Test func whatIsWrongIsNamed() throws {
    #expect(throws: CodecError("the data decompresses to more than 1000 bytes")) {
      try Zstd.decompress(CodecVectorTests.bytes(Self.zstdLevel1)[...], limit: 1_000)
    }
    #expect(throws: CodecError("no Zstandard frame at byte 0")) {
      try Zstd.decompress(Array("PAR1".utf8)[...], limit: 10)
    }
    // A raw block of 2 bytes ("hi"), then a block of the reserved type.
    let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x10, 0x00, 0x00, 104, 105, 0x07, 0x00, 0x00]
    #expect(throws: CodecError("a Zstandard block of the reserved type 3 (at byte 11)")) {
      try Zstd.decompress(frame[...], limit: 10)
    }
    var raw = frame
    raw[6] = 0x11
    #expect(try Zstd.decompress(raw.prefix(11), limit: 10) == Array("hi".utf8))
  }

  @Test(arguments: 0..<24) func mutatedFramesNeverTrapNorPassTheirBound(seed: Int) {
    var random = SeededRandom(seed: UInt64(2_000 + seed))
    let sources = [Self.zstdLevel1, Self.zstdLevel19, Self.zstdBig].map(CodecVectorTests.bytes)
    for round in 0..<30 {
      var stream = sources[round % sources.count]
      for _ in 0..<Int(random.next() % 3) + 1 {
        let at = Int(random.next() % UInt64(stream.count))
        switch random.next() % 3 {
        case 0: stream[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: stream[at] ^= 1 << UInt8(random.next() % 8)
        default: stream.removeSubrange(at..<min(stream.count, at + Int(random.next() % 8) + 1))
        }
        if stream.isEmpty { stream = [0] }
      }
      let limit = 300_000
      if let output = try? Zstd.decompress(stream[...], limit: limit) { #expect(output.count <= limit) }
    }
  }

  /// A frame of one compressed block: `literals` raw, then `count` sequences of `literalLength`
  /// literals and a match of 65,539 + `extra` bytes one byte back (RLE tables: literal length
  /// code `literalLength`, offset code 2, match length code 52), the last `rest` literals after.
  static func longMatches(count: Int, literalLength: Int, extra: Int, literals: Int) -> [UInt8] {
    var content: [UInt8] = [UInt8(literals << 3)] + Array(repeating: 97, count: literals)
    content += [UInt8(count), 0x54, UInt8(literalLength), 2, 52]
    // Each sequence reads its offset's 2 extra bits (0: offset value 4, one byte back), then
    // its match length's 16; RLE states read none. The first read is the highest.
    let total = 18 * count
    var stream = [UInt8](repeating: 0, count: total / 8 + 1)
    var at = total
    for _ in 0..<count {
      at -= 18
      for bit in 0..<16 where extra >> bit & 1 == 1 { stream[(at + bit) / 8] |= 1 << UInt8((at + bit) % 8) }
    }
    stream[total / 8] |= 1 << UInt8(total % 8)
    content += stream
    let header = content.count << 3 | 2 << 1 | 1
    return [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x68] + (0..<3).map { UInt8(truncatingIfNeeded: header >> (8 * $0)) }
      + content
  }

  /// A block holds at most its window (when below 128 KiB), a frame exactly the content size
  /// its header declares, and a frame that declares a small content takes room for it alone
  /// whatever the bound.
  @Test func aFrameHoldsWhatItsHeaderDeclaresAndABlockItsWindow() throws {
    let data = Array(CodecVectorTests.text.prefix(200))
    let frame = Zstd.compress(data, checksum: false)
    #expect(frame[4] == 0x20 && frame[5] == 200, "a single segment with a 1-byte content size")
    let output = try Zstd.decompress(frame[...], limit: 1 << 30)
    #expect(output == data)
    #expect(output.capacity < 1_024, "room for the declared content, not for the bound")
    var long = frame
    long[5] = 201
    #expect(throws: CodecError("a Zstandard frame holds 200 bytes, its header declares 201")) {
      try Zstd.decompress(long[...], limit: 1 << 20)
    }
    for declared: UInt8 in [199, 0] {
      var short = frame
      short[5] = declared
      // A single segment's window is its content: the block passes it, or the content does.
      #expect(throws: CodecError.self, "declared \(declared)") { try Zstd.decompress(short[...], limit: 1 << 20) }
    }
    // A window of 1 KiB (descriptor 0x00), no content size, one raw block of 2,000 bytes.
    let raw: [UInt8] =
      [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00] + [UInt8(truncatingIfNeeded: 2_000 << 3 | 1), 0x3E, 0x00]
      + Array(repeating: 120, count: 2_000)
    #expect(throws: CodecError("a Zstandard block decompresses to more than its maximum of 1024 bytes")) {
      try Zstd.decompress(raw[...], limit: 1 << 20)
    }
    var wider = raw
    wider[5] = 0x08  // a window of 2 KiB
    #expect(try Zstd.decompress(wider[...], limit: 1 << 20) == Array(repeating: 120, count: 2_000))
  }

  /// A block's bytes are at most 128 KiB, and the bound holds inside a block: the long
  /// matches' block decodes where it fits, and throws where its second match passes either,
  /// both in the decoding loop over buffers (ten sequences: more than 128 bits) and in the
  /// checked one (one or two sequences).
  @Test func aBlockStaysWithin128KiBAndTheBound() throws {
    let full = Self.longMatches(count: 1, literalLength: 1, extra: 65_532, literals: 1)
    #expect(try Zstd.decompress(full[...], limit: 1 << 20) == Array(repeating: 97, count: 128 << 10))
    #expect(throws: CodecError("a Zstandard block decompresses to more than its maximum of 131072 bytes")) {
      try Zstd.decompress(Self.longMatches(count: 1, literalLength: 1, extra: 65_533, literals: 1)[...], limit: 1 << 20)
    }
    for count in [2, 10] {
      let frame = Self.longMatches(count: count, literalLength: 1, extra: 0, literals: count)
      #expect(throws: CodecError("a Zstandard block decompresses to more than its maximum of 131072 bytes")) {
        try Zstd.decompress(frame[...], limit: 1 << 20)
      }
      #expect(throws: CodecError("the data decompresses to more than 100000 bytes")) {
        try Zstd.decompress(frame[...], limit: 100_000)
      }
    }
    let fits = Self.longMatches(count: 1, literalLength: 1, extra: 0, literals: 3)
    #expect(try Zstd.decompress(fits[...], limit: 65_542) == Array(repeating: 97, count: 65_542))
    #expect(throws: CodecError("the data decompresses to more than 65541 bytes")) {
      try Zstd.decompress(fits[...], limit: 65_541)
    }
  }
}
