import FlowCodecs
import Foundation
import Testing

/// Streams written by Python's `zlib` and `gzip` (zlib's encoder: dynamic and stored blocks,
/// a named member, concatenated members), decoded to the bytes that were compressed.
@Suite struct CodecVectorTests {
  /// The text compressed below: 400 lines `i,carrier,delay,date` (generated the same way).
  static let text: [UInt8] = {
    let carriers = ["UA", "AA", "B6", "DL", "EV", "MQ"]
    var text = ""
    for i in 0..<400 {
      let day = 1 + i % 28
      text += "\(i),\(carriers[(i * 7) % 6]),\((i * 7919) % 97 - 20),2013-01-\(day < 10 ? "0" : "")\(day)\n"
    }
    return Array(text.utf8)
  }()

  /// `zlib.compressobj(9, zlib.DEFLATED, -15)` of `text`: raw DEFLATE with dynamic blocks.
  static let zlibLevel9 =
    "XdlNDuS4EYTRvc5SBSgz+SMu27B39sIL+/5HsRRRsPgNMIsB0WiK6gclo+L8/OfP55vnJ8+o7xn3f0d8/vz5tHyX8sjP38Znvit11Ofv//yM9S61o33+8d9PtXepH/3zr39/vvEujWM8O45taR7z2TDHu3Qd17Phd/vr17GeHXv9fynOI85ny7jetfvpw3u+Txt5RD67tv6u1RH1bBvv0aMd0XTQ9+zRj+jPxrX9feOI8Wy8/bF53Bve+473+HEd95Pd2+Z7jFhHrGfb73vaPI/7/d/b9m0tjoxn23xfVN7/DPlsez/ou1hH1rNxe19CtiPbs3G8Lyv7kf3ZeL7vIMdxv/R74/a+g5xHTr3od+k68nr2HXNXcp/q3rbApE5xKkARpw4pJU8JKiVR97/gjqVkqkNLCVWAS0nV/Xp3MCVXDWJKsACmBGueu5cmWAUvTbDApYnVAJcmVgkuTay+1+6liVWHlyZWAS9t2jPANMFqANMEKwCmC9as3UsXrIKXLljg0sVqgEsXqwKXLlZfeOli1eGli1XCS7/sGWC6YDWAGYIVADMEaw58XASrwcvwp2rnMsRqXLuWIVYFLcOscucypGqAy5CqBJex7Blgplx1gJlyFQAz054hZkpWg5gpWQAzBWvG7mUKVsHLFCxwmWI1wGWKVYLLJVbfuXu5xKrDyyVWCS9X2TPAXILVAOYSrACYS7Bm271cglXwcgkWuFxiNcBliVWByxKrb9u9LLHq8LLEKuFlNXsGmCVYHWCWYAXALMHaZ/ENZklWA5jlDxbm0SlY2zx+JtIpWcWRdP5oYSadojVgJk7ZSqCJU7q2yXyziVO8OtzEaV+AE+fl3UEnThlrsBMhZAE8EVK2DegbT4S/XtATIWfQEyFmA3wi5CzhJ0LQtil9C4rwZAShCFFLGIpYRg5FkeLWwChS3oL3mvSFq+NikxLXTl5sPCFxsUmJ28b1c7NJkStebdLmCpZS5jotpdAlLdVp78RUYteJqcQuiKnEbh/bj6aSu0ZNJXfEVGK3Te7HUold0VKJHSmV0A1SakKXpNSEbhvfj6UmdJ2WmtAFLbVm88TUxK4RUxO7IKYmdtsQfyw1sStaar6TgVIXukFKXeiKlLrQfWmpC12npS50+Zdr8u+yT0xd7BoxdbELYupit83zx1IXu0ZLwx87UBpCt430R9IQuqKkYXQJSkPmBikNmUtSGsPmiWlIXSemIXVBTMP3/6CmKXeNmqbcEdMUu226P5am2BUtTWcAUJpCN0hpCl2S0hS6bcQ/lqbQdVqaQpe0dDkJcMLF5WhJTJfYBTFdYrcN+sfS5YRJS5fY/SV2OWSS0iV0RUqXg2aDpctRk5aW0CUtrV/YJKYldp2YluMmMS0HA96QYsldI6bljx0sLWfOBUpL6oqU1k/dbilPoRuwdP+v0MNSng6ea8eUp9R1YMrT6oApT2eEgKY8HT6hKU+5C2jKU+72WH7H3tMfO2DKkDtYypC6AUsZjqCwlOEMOnZMGZ6wwJQhdQlMGb8U2pjjHUOhKUPuApoyfLHrSPIpdw2YMj1iEeXTYXQiy6fUFShlWl0hzqfzKCxl+ncOWMr8JVJiSrHrxJTOpMRUTg9BTSV3jZpK7oipxG7P6/erLydTWiqxI6USukFK5WxKSuVwesFSCV2npeZ0SkvNOSKIqTmgElMTuyCmJnZ7dL9P1BxSaan5ZgdKzSmVlJrQFSk151Ra6s6ptNSFLmmp/+IEMXVHVWLqYhfE1J1WByx1sWu01P2xA6XuwHpBUhe6oqRhdAlKQ+YGKQ2HVlIav9RKTEPqOjEN51ZiGs4TQU1D7ho1DbkjpiF229R/LE2nV1qajhOgNIVukNJ0fiWl6QA7YWk6wNLSFLqkpek4wSGX0xmWmKbYBTFdYrfH+/tBL6dYWrr8gy4oXQ6xpHQJXZHS5RDbYOlyiKWlS+iSlq5fiCWmS+w6MS2HWGJazhO8MuWSu0ZMyx87WFpOsQuUltQVKa2fOlhaQjdoaTnF0tJyil07pjqlrgNTnVYHTHU6TwQ01ekUC011yl1AU51yt2f9cS/6YwdMdbpB2C3VKXUDlup0ioWlcouwZ/3nV2tPWGAq1wgJTBW/EAtN5SahQVO5SghoKncJ29R/frp2m9CAqVwnwFK5ThhoO8p9QoFSuVDYs/7zQ7xTLCyVG4WEpcpfigWmcqnQgancKgQwlWsFZP37SG4WGjW5WiAmVwt71r+P5G6haMnlAim5XBik5HIhScntwjb1H0uuFzotuV4IWnK/gKz/PKdTLDG5YwhicsmwZ/2nBHGMpSX3DKTknmGQkouGIiU3DV9actXQaclVQ9JS+8UJYnLb0IjJdUMQk/uGPes/vY6LLFpy5UBKrhz2rH+fyJ1DUZJLhz3r3ydy6zBIya1DktL4pVhicvHQicnNQxDT+HVa1OT2oVGT6wdicv2wZ/37Qd0/FC25gCAlFxCDlFxAJCm5gdim/mPJFUSnJVcQSUvuIL4ccuUaohGTe4ggJhcRe9a/T+QqomjJXQQpuYsYpOQyokjJbcQ29R9LriM6LbmOSFq6fiGWmNxIdGJyJRHE5E7iyytTuZZoxORegpbcS2xT/6HkYqJIaf3UwZKriUFLriaSltxN7Fn/fkyXE52YXE4EMa1f7wVN/wM="

  /// Two members: `GzipFile(filename="a.csv", mtime=0)` of `id,x\n1,2\n`, then
  /// `gzip.compress(b"3,4\n", compresslevel=0, mtime=0)` (a stored block).
  static let twoMembers = "H4sICAAAAAAC/2EuY3N2AMtM0angMtQx4gIA2tTRkwkAAAAfiwgAAAAAAAQDAQQA+/8zLDQKPi1yqQQAAAA="

  static func bytes(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }

  @Test func zlibsDynamicBlocksDecode() throws {
    #expect(Self.text.count == 8_295)
    var crc = CRC32()
    crc.update(Self.text)
    #expect(crc.value == 0x2D06_32A6, "the text is the one Python compressed")
    let (output, end) = try Inflate.decompress(Self.bytes(Self.zlibLevel9), limit: 1 << 20)
    #expect(output == Self.text)
    #expect(end == Self.bytes(Self.zlibLevel9).count)
  }

  @Test func concatenatedMembersWithANameAndAStoredBlockDecode() throws {
    let output = try Gzip.decompress(Self.bytes(Self.twoMembers), limit: 1 << 20)
    #expect(String(decoding: output, as: UTF8.self) == "id,x\n1,2\n3,4\n")
  }

  @Test func theCheckValueOfCRC32() {
    var crc = CRC32()
    crc.update(Array("123456789".utf8))
    #expect(crc.value == 0xCBF4_3926)
  }

  @Test func theLimitStopsAZipBomb() throws {
    let bomb = Gzip.compress([UInt8](repeating: 0, count: 1 << 20))
    #expect(bomb.count < 20_000)
    #expect(throws: CodecError("the data decompresses to more than 65536 bytes")) {
      try Gzip.decompress(bomb, limit: 65_536)
    }
    #expect(try Gzip.decompress(bomb, limit: 1 << 20).count == 1 << 20)
  }

  @Test func whatIsWrongIsNamed() {
    #expect(throws: CodecError("no gzip header at byte 0")) { try Gzip.decompress(Array("id,x\n".utf8), limit: 100) }
    var stream = Gzip.compress(Array("hello, hello, hello".utf8))
    stream[stream.count - 8] ^= 1
    #expect(throws: CodecError("the gzip CRC-32 does not match (at byte \(stream.count - 8))")) {
      try Gzip.decompress(stream, limit: 100)
    }
    #expect(throws: CodecError.self) { try Gzip.decompress(Array(stream.dropLast(9)), limit: 100) }
    #expect(throws: CodecError("a block of the reserved type 3 (near byte 1)")) {
      try Inflate.decompress([0x07, 0], limit: 10)
    }
  }
}
