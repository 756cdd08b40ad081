import FlowCodecs
import FlowTestSupport
import Foundation
import Testing

/// Snappy and LZ4 blocks: streams written by `cramjam` (Python's binding of the reference
/// encoders), random streams of literals and copies built beside the bytes they stand for, and
/// mutated streams that must throw or decode within their bound, never trap.
@Suite struct SnappyAndLZ4Tests {
  /// The first 2,400 bytes of `CodecVectorTests.text`, compressed by cramjam 2.14:
  /// `snappy.compress_raw`, `lz4.compress_block(store_size=False)`, and two such blocks (the
  /// first 1,000 bytes, then the rest) in Hadoop frames (big-endian sizes before each).
  static let snappy =
    "4BJoMCxVQSwtMjAsMjAxMy0wMS0wMQoxLEFBLDQyGRMcMgoyLEI2LDcZEiAzCjMsREwsNjkZEyA0CjQsRVYsMzQZEyA1CjUsTVEsLTEZEwg2CjYBcgA2HRMINwo3AXEEMjYZJgg4CjgBcQAtHV8IOQo5AXIENTMVJhAxMAoxMAFzBDE4GRQMMQoxMQl0Ga4QMTIKMTIBdgQ0NRkpDDMKMTMBdwAxGfsQMTQKMTQBeAA3GfwQMTUKMTUBeQAzHVAMNgoxNgF5HScMNwoxNwF4ADYZ/xAxOAoxOAF3ADIZxxAxOQoxOQF3AC0Z7hAyMAoyMAF3ADUdFAwxCjIxAXcAMjkpEDIyCjIyAXcELTEZZRAyMwoyMwF5ADQ5BRAyNAoyNAF5ADE5LRAyNQoyNQF5ADc5BBAyNgoyNgF5ADQ5BBAyNwoyNwF5HScMOAoyOAF4ADY5AxAwMQoyOQF3ADM5BAwwMgozSU8Zd0EpRU8ANTkEDDA0CjNFUAAyGccMMDUKM0VSBC0xGfEMMDYKM0VUADUdFAg3CjNFVQAxOS0MMDgKM0VWBC0xHWYIOQozRVgANBmODDEwCjNFWTksDDExCjNFWQA3OQQQMTIKNDAB8QAzOQUMMTMKNEVZHScINAo0RVcANjkEDDE1CjRFVwAyOSwMMTYKNEVXAC0ddwg3CjRFVwA1OQQMMTgKNEVXHcYMMTkKNEVYBC0xGfAMMjAKNEVZADQdFAgxCjRFWT1ADDIyCjVFWQA3OQMMMjMKNUVZADMZjRAyNAo1MgXwdR8MMjUKNUVXADY5AwwyNgo1RVcAMzkEEDI3CjU1QVcALR0oCDgKNUVXADU5BAwwMQo1RVcAMjksDDAyCjVFWAAtXagMMDMKNUVZADQ9ywg0CjZFWV34DDA1CjZFWQA3OQSBXUVZADQyMAIANkVZHScIOAo2RVcANjkDEDA5CjY1RdA5BAwxMAo2SVcZtAwxMQo2RVYANjkEDDEyCjZFVggyNSyxRgwxMwo2RVcALTZgBAQ3MCFoADUdUQg1CjdFWC6wBAg2CjdFWQAtLtoECDcKN0VaADQyMgIAN0VaOSwMMTkKN0VZADc5BAwyMAo3RVkAMzkFDDIxCjdFWR0nCDIKN0VXADY5BAwyMwo3RVcAMjksDDI0CjhFVwAtOeAMMjUKOEVXADU5BAwyNgo4RVfdXgwyNwo4RVgELTEdKQg4CjhFWQA0GVEMMDEKOEVZADE5LAwwMgo4RVkANzkDDDAzCjhFWQAzOQQQMDQKODghaB0nCDUKOEVXADY5AwwwNgo5RVcAMzkEDDA3CjlFVwAtHTwIOAo5RVcANTkEwY9FVwQyMzn0CDAKOUVYAC0dtAwxMQo5RVkANTIxAgA5RVk9BAwxMwo5RVkujAcMMTQKOUVa/Y0MMTUKOUVaOSzBkAQwMAHx/ZDBkgAwRVr9ksGTADBNWxm4DDkKMTBFW/2WEDIwCjEwRVz9mBAyMQoxMEVe/ZoQMjIKMTBFX/2cEDIzCjEwSWA5NRAyNAoxMEViAC1d7hAyNQoxMEVkADRdEww2CjExRWV9QBAyNwoxMUVm/aEUMjgKMTEyAf39og7FCAAxRWgyPgIEMTFFZ/2kEDAzCjExRWj9pRAwNAoxMUVp/aYQMDUKMTFFav2nADABp0Vr/agwMDcKMTE5LE1RLC0xNA=="

  static let lz4Block =
    "9gwwLFVBLC0yMCwyMDEzLTAxLTAxCjEsQUEsNDITAIYyCjIsQjYsNxIAljMKMyxETCw2ORMAljQKNCxFViwzNBMAljUKNSxNUSwtMRMAhzYKNixVQSw2EwAwNwo3cQAmMjYmADA4CjhxABctXwAwOQo5cgAlNTMmAFAxMAoxMHMAJjE4FABCMQoxMXQABq4AUDEyCjEydgAmNDUpAEAzCjEzdwAWMfsAUDE0CjE0eAAWN/wAUDE1CjE1eQAXM1AAQDYKMTZ5AAcnAEA3CjE3eAAWNv8AUDE4CjE4dwAWMscAUDE5CjE5dwAlLTaLAFAyMAoyMHcAFzUUAEAxCjIxdwAWMikBUDIyCjIydwAmLTFlAFAyMwoyM3kAFjQFAVAyNAoyNHkAFjEtAVAyNQoyNXkAFjcEAVAyNgoyNnkAJjQwjQBANwoyN3kABycAQDgKMjh4ABY2AwFQMDEKMjl3ABYzBAFCMDIKM08CBncAQTAzCjNPAhY1BAFBMDQKM1ACFjLHAEEwNQozUgImLTHxAFAwNgozNHkAFzUUADE3CjNVAhYxLQFBMDgKM1YCJy0xZgAxOQozWAIWNI4AQTEwCjNZAgYsAUExMQozWQIWNwQBQTEyCjRZAhYzBQFBMTMKNFkCBycAMTQKNFcCFjYEAUExNQo0VwIWMiwBQTE2CjRXAhctdwAxNwo0VwIWNQQBQTE4CjRXAgfGAEExOQo0WAIXLfAAQTIwCjRZAhY0BAFBMjEKNFkCB0ABQTIyCjVZAhY3AwFBMjMKNVkCFjONAEEyNAo1WQIHJwAxNQo1VwIWNgMBQTI2CjVXAhYzBAFBMjcKNVcCFy0oADE4CjVXAhY1BAFBMDEKNVcCFjIsAUEwMgo1WAIXLagCQTAzCjVZAhc0ywExNAo2WQIH+AJBMDUKNlkCFjcEAUEwNgo2WQIZNDACETZZAgcnADE4CjZXAhY2AwFBMDkKNlcCFjMEAUIxMAo2VwIGtABBMTEKNlYCFjYEAUExMgo2VgIWMgQBQTEzCjZXAhotYAQRN1gCFzVRAEA1CjcxSQMWMS0BQTE2CjdZAhgt2gQxNwo3WgIZNDICETdaAgYsAUExOQo3WQIWNwQBQTIwCjdZAhYzBQFBMjEKN1kCBycAMTIKN1cCFjYEAUEyMwo3VwIWMiwBQTI0CjhXAhYtswBBMjUKOFcCFjUEAUEyNgo4VwIHXgZBMjcKOFgCJy0xKQAxOAo4WQIWNFEAQTAxCjhZAhYxLAFBMDIKOFkCFjcDAUEwMwo4WQIWMwQBQTA0CjhZAgcnADE1CjhXAhY2AwFBMDYKOVcCFjMEAUEwNwo5VwIXLTwAMTgKOVcCFjUEAUEwOQo5VwIWMiwBQTEwCjlYAhcttABBMTEKOVkCGTUxAhE5WQIHBAFBMTMKOVkCCIwHQTE0CjlaAgeNB0ExNQo5WgIGLAFRMTYKMTBZAgeQB1ExNwoxMFoCB5IHAJMGEzBbAgXzBQCUBhEwWwIHlgcQMl0HAVwCB5gHUTIxCjEwXgIHmgdRMjIKMTBfAgecB2EyMwoxMDfYAgY1AVEyNAoxMGICCJ4HUTI1CjEwZAIHnwdRMjYKMTFlAgdAA1EyNwoxMWYCB6EHUTI4CjExZwIWMxIBAMUIETFoAgk+AjExMTR9CAfcAUEzCjExaAIHpQdRMDQKMTFpAgemB1EwNQoxMWoCB6cHEDCnAAFrAgeoBxAwpwCAOSxNUSwtMTQ="

  static let hadoopLZ4 =
    "AAAD6AAAAkf2DDAsVUEsLTIwLDIwMTMtMDEtMDEKMSxBQSw0MhMAhjIKMixCNiw3EgCWMwozLERMLDY5EwCWNAo0LEVWLDM0EwCWNQo1LE1RLC0xEwCHNgo2LFVBLDYTADA3CjdxACYyNiYAMDgKOHEAFy1fADA5CjlyACU1MyYAUDEwCjEwcwAmMTgUAEIxCjExdAAGrgBQMTIKMTJ2ACY0NSkAQDMKMTN3ABYx+wBQMTQKMTR4ABY3/ABQMTUKMTV5ABczUABANgoxNnkABycAQDcKMTd4ABY2/wBQMTgKMTh3ABYyxwBQMTkKMTl3ACUtNosAUDIwCjIwdwAXNRQAQDEKMjF3ABYyKQFQMjIKMjJ3ACYtMWUAUDIzCjIzeQAWNAUBUDI0CjI0eQAWMS0BUDI1CjI1eQAWNwQBUDI2CjI2eQAmNDCNAEA3CjI3eQAHJwBAOAoyOHgAFjYDAVAwMQoyOXcAFjMEAUIwMgozTwIGdwBBMDMKM08CFjUEAUEwNAozUAIWMscAQTA1CjNSAiYtMfEAUDA2CjM0eQAXNRQAMTcKM1UCFjEtAUEwOAozVgInLTFmADE5CjNYAhY0jgBBMTAKM1kCBiwBQTExCjNZAhY3BAFBMTIKNFkCFjMFAUExMwo0WQIHJwAxNAo0VwIWNgQBQTE1CjRXAhYyLAFBMTYKNFcCFy13ADE3CjRXAhY1BAFBMTgKNFcCB8YAQTE5CjRYAhct8ABBMjAKNFkCFjQEAUEyMQo0WQIHQAHAMjIKNTAsQjYsNzMsAAAFeAAAAy31BTIwMTMtMDEtMjMKNTEsREwsMzgsFACWNAo1MixFViwzEwCmNQo1MyxNUSw2NRQApjYKNTQsVUEsMzAUAJc3CjU1LEFBLC0oAKU4CjU2LEI2LDU3KABQMDEKNTd3ACYyMhQAQDIKNTh3ACYtMXkAUDAzCjU5eQAmNDkpAEA0CjYweQAmMTQUAEA1CjYxeQAmNzYUAEA2CjYyeQAmNDEUAEA3CjYzeQAHJwBAOAo2NHgAFjYDAVAwOQo2NXcAFjOLAKYxMAo2NixVQSwttABQMTEKNjd3ABY2BAFQMTIKNjh3ABYyBAFQMTMKNjl3ACctMSkAQDQKNzB5ABc1UQBANQo3MXkAFjEtAVExNgo3MnkAFjGiAFAxNwo3M3oAFjQFAVAxOAo3NHoABiwBUDE5Cjc1eQAWNwQBUDIwCjc2eAAWMwUBUTIxCjc3eAAFKwFQMjIKNzh3ABY2BAFQMjMKNzl2ABYyigBQMjQKODB2ABYtswBBMjUKOFcCFjUEAUEyNgo4VwIWMgMBQTI3CjhYAictMSkAMTgKOFkCFjRRAEEwMQo4WQIWMSwBQTAyCjhZAhY3AwFBMDMKOFkCFjMEAUEwNAo4WQIHJwAxNQo4VwIWNgMBQTA2CjlXAhYzKwFBMDcKOVcCFy08ADE4CjlXAhY1BAFBMDkKOVcCFjIsAVAxMAo5NGcBFy20AEExMQo5WQIWNQUBQTEyCjlZAgcEAUExMwo5WQIXLS4BQTE0CjlaAhY0BQFBMTUKOVoCBiwBUTE2CjEwWQIWNgUBUTE3CjEwWgIWM8sAUzE4CjEwWwIF+AFRMTkKMTBbAhY2CQFRMjAKMTBcAhYyMgFRMjEKMTBeAhYtaQBRMjIKMTBfAhY1DAFSMjMKMTBgAgY1AVEyNAoxMGICFy3uAlEyNQoxMGQCFzQTAkE2CjExZQIHQANRMjcKMTFmAhY3EAFRMjgKMTFnAhYzEgFRMDEKMTFoAgYpALYwMgoxMTQsVUEsNhEBUTAzCjExaAIWMtIAUTA0CjExaQIWLfwAUTA1CjExagIXNRUAAKcAAWsCFjI7ARAwpwCAOSxNUSwtMTQ="

  static var text: [UInt8] { Array(CodecVectorTests.text.prefix(2_400)) }

  @Test func referenceStreamsDecode() throws {
    #expect(try Snappy.decompress(CodecVectorTests.bytes(Self.snappy), limit: 2_400) == Self.text)
    #expect(try LZ4.decompressBlock(CodecVectorTests.bytes(Self.lz4Block)[...], limit: 2_400) == Self.text)
    #expect(try LZ4.decompressHadoop(CodecVectorTests.bytes(Self.hadoopLZ4)[...], limit: 2_400) == Self.text)
  }

  @Test func handWrittenBlocksDecode() throws {
    // Length 11; literal "abc"; copy of 8 bytes from 3 back (1-byte offset form, length 4 + 4).
    #expect(
      try Snappy.decompress([11, 0b0000_1000, 97, 98, 99, 0b0001_0001, 3], limit: 11) == Array("abcabcabcab".utf8))
    // Token: 3 literals, match 4 + 4; offset 3; then a last sequence of one literal.
    #expect(try LZ4.decompressBlock([0x34, 97, 98, 99, 3, 0, 0x10, 33][...], limit: 100) == Array("abcabcabcab!".utf8))
  }

  @Test func whatIsWrongIsNamed() {
    #expect(throws: CodecError("the data decompresses to more than 10 bytes")) {
      try Snappy.decompress([11, 0], limit: 10)
    }
    #expect(throws: CodecError("a Snappy copy reaches before the start of the data (offset 4, at byte 5)")) {
      try Snappy.decompress([11, 0b0000_1000, 97, 98, 99, 0b0001_0001, 4], limit: 11)
    }
    #expect(throws: CodecError("the Snappy block holds 3 bytes, its header says 4")) {
      try Snappy.decompress([4, 8, 97, 98, 99], limit: 10)
    }
    #expect(throws: CodecError("an LZ4 match reaches before the start of the data (offset 9, at byte 6)")) {
      try LZ4.decompressBlock([0x34, 97, 98, 99, 9, 0, 0x10, 33][...], limit: 100)
    }
    #expect(throws: CodecError("the data decompresses to more than 5 bytes")) {
      try LZ4.decompressBlock([0x34, 97, 98, 99, 3, 0, 0x10, 33][...], limit: 5)
    }
  }

  /// A random stream of literals and copies, with the bytes it stands for.
  static func randomSnappy(_ random: inout SeededRandom) -> (stream: [UInt8], bytes: [UInt8]) {
    var bytes: [UInt8] = []
    var body: [UInt8] = []
    for _ in 0..<Int(random.next() % 60) {
      if bytes.isEmpty || random.next() % 2 == 0 {
        let count = Int(random.next() % 300) + 1
        let literal = (0..<count).map { _ in UInt8(random.next() % 7) }
        if count <= 60 {
          body.append(UInt8(count - 1) << 2)
        } else if count <= 256 {
          body += [60 << 2, UInt8(count - 1)]
        } else {
          body += [61 << 2, UInt8((count - 1) & 255), UInt8((count - 1) >> 8)]
        }
        body += literal
        bytes += literal
      } else {
        let offset = Int(random.next() % UInt64(min(bytes.count, 2_000))) + 1
        let count = Int(random.next() % 64) + 1
        switch random.next() % 3 {
        case 0 where count >= 4 && count <= 11 && offset < 2_048:
          body += [UInt8(offset >> 8) << 5 | UInt8(count - 4) << 2 | 1, UInt8(offset & 255)]
        case 1:
          body += [UInt8(count - 1) << 2 | 3, UInt8(offset & 255), UInt8(offset >> 8), 0, 0]
        default:
          body += [UInt8(count - 1) << 2 | 2, UInt8(offset & 255), UInt8(offset >> 8)]
        }
        for _ in 0..<count { bytes.append(bytes[bytes.count - offset]) }
      }
    }
    var header: [UInt8] = []
    var length = bytes.count
    repeat {
      header.append(UInt8(length & 127) | (length > 127 ? 128 : 0))
      length >>= 7
    } while length > 0
    return (header + body, bytes)
  }

  /// A random LZ4 block (sequences of literals and matches, literals last), with its bytes.
  static func randomLZ4(_ random: inout SeededRandom) -> (stream: [UInt8], bytes: [UInt8]) {
    var bytes: [UInt8] = []
    var stream: [UInt8] = []
    func length(_ value: Int) -> [UInt8] {
      var rest = value - 15
      var out: [UInt8] = []
      while rest >= 255 { out.append(255); rest -= 255 }
      return out + [UInt8(rest)]
    }
    let sequences = Int(random.next() % 40)
    for index in 0...sequences {
      let literals = (0..<Int(random.next() % (index == 0 ? 300 : 30)) + (index == 0 ? 1 : 0)).map { _ in
        UInt8(random.next() % 5)
      }
      let last = index == sequences
      let match = last ? 0 : Int(random.next() % 600) + 4
      stream.append(UInt8(min(literals.count, 15)) << 4 | (last ? 0 : UInt8(min(match - 4, 15))))
      if literals.count >= 15 { stream += length(literals.count) }
      stream += literals
      bytes += literals
      if last { break }
      let offset = Int(random.next() % UInt64(min(bytes.count, 65_535))) + 1
      stream += [UInt8(offset & 255), UInt8(offset >> 8)]
      if match - 4 >= 15 { stream += length(match - 4) }
      for _ in 0..<match { bytes.append(bytes[bytes.count - offset]) }
    }
    return (stream, bytes)
  }

  @Test(arguments: 0..<60) func randomStreamsDecodeToTheirBytes(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let snappy = Self.randomSnappy(&random)
    #expect(try Snappy.decompress(snappy.stream, limit: snappy.bytes.count) == snappy.bytes)
    let lz4 = Self.randomLZ4(&random)
    #expect(try LZ4.decompressBlock(lz4.stream[...], limit: lz4.bytes.count) == lz4.bytes)
    let framed = Self.frame(lz4) + Self.frame(lz4)
    #expect(try LZ4.decompressHadoop(framed[...], limit: 2 * lz4.bytes.count) == lz4.bytes + lz4.bytes)
  }

  static func frame(_ block: (stream: [UInt8], bytes: [UInt8])) -> [UInt8] {
    func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 255) } }
    return bigEndian(block.bytes.count) + bigEndian(block.stream.count) + block.stream
  }

  /// Mutated streams (bytes flipped, cut, spliced): each throws or decodes within its bound.
  @Test(arguments: 0..<60) func mutatedStreamsNeverTrapNorPassTheirBound(seed: Int) {
    var random = SeededRandom(seed: UInt64(1_000 + seed))
    let snappy = Self.randomSnappy(&random)
    let lz4 = Self.randomLZ4(&random)
    let sources = [
      snappy.stream, lz4.stream, CodecVectorTests.bytes(Self.snappy), CodecVectorTests.bytes(Self.hadoopLZ4)
    ]
    for round in 0..<40 {
      var stream = sources[round % sources.count]
      guard !stream.isEmpty else { continue }
      for _ in 0..<Int(random.next() % 4) + 1 {
        let at = Int(random.next() % UInt64(stream.count))
        switch random.next() % 3 {
        case 0: stream[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: stream.removeSubrange(at...)
        default: stream.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        }
        if stream.isEmpty { stream = [0] }
      }
      let limit = 4_096
      if let output = try? Snappy.decompress(stream, limit: limit) { #expect(output.count <= limit) }
      if let output = try? LZ4.decompressBlock(stream[...], limit: limit) { #expect(output.count <= limit) }
      if let output = try? LZ4.decompressHadoop(stream[...], limit: limit) { #expect(output.count <= limit) }
    }
  }
}
