import FlowTestSupport
import Testing
@testable import FlowNodes

/// Dictionary indices decoded straight into values (`UnsafeParquetRuns.appendLookingUp` over
/// a `ParquetRLEDecoder`'s runs) against decoding the indices and looking each one up: random
/// mixes of repeated and bit-packed runs at every width, dictionaries of every size, values
/// appended after others; an index past the dictionary (in either kind of run, named in the
/// message) and runs that end early throw, leaving the output as it was.
@Suite struct ParquetDictionaryRunsTests {
  /// Hybrid runs of `indices` (values below `1 << bitWidth`): a repeated run where a value
  /// repeats, else bit-packed groups of 8 (the last padded with garbage past `indices`).
  static func runs(_ indices: [UInt32], bitWidth: Int, _ random: inout SeededRandom) -> [UInt8] {
    var bytes: [UInt8] = []
    func varint(_ value: Int) {
      var rest = value
      while rest >= 0x80 {
        bytes.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      bytes.append(UInt8(rest))
    }
    var position = 0
    while position < indices.count {
      var repeats = 1
      while position + repeats < indices.count, indices[position + repeats] == indices[position] { repeats += 1 }
      if repeats >= 3 || Bool.random(using: &random) && repeats > 1 {
        varint(repeats << 1)
        for byte in 0..<(bitWidth + 7) / 8 { bytes.append(UInt8(truncatingIfNeeded: indices[position] >> (8 * byte))) }
        position += repeats
        continue
      }
      let groups = Int.random(in: 1...3, using: &random)
      var values = Array(indices[position..<min(indices.count, position + groups * 8)])
      position += values.count
      while values.count < groups * 8 {
        values.append(UInt32.random(in: 0...UInt32.max, using: &random) & UInt32((1 << UInt64(bitWidth)) - 1))
      }
      varint(groups << 1 | 1)
      var packed = [UInt8](repeating: 0, count: groups * bitWidth)
      for (index, value) in values.enumerated() {
        for bit in 0..<bitWidth where value >> bit & 1 == 1 {
          let at = index * bitWidth + bit
          packed[at / 8] |= 1 << UInt8(at % 8)
        }
      }
      bytes += packed
    }
    return bytes
  }

  static func decoder(_ bytes: [UInt8], bitWidth: Int) throws -> ParquetRLEDecoder {
    try ParquetRLEDecoder(bytes, from: 0, to: bytes.count, bitWidth: bitWidth, what: "indices")
  }

  @Test(arguments: 0..<60) func lookupsMatchDecodingThenLookingUp(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 41)
    let size = [1, 2, 3, 8, 11, 50, 255, 256, 4_000][Int(seed) % 9]
    let bitWidth = ParquetRLEDecoder.bitWidth(of: size - 1) + Int(seed % 3 == 2 ? 1 : 0)
    let dictionary = (0..<size).map { _ in Int64.random(in: -1_000_000...1_000_000, using: &random) }
    let count = Int.random(in: 0..<400, using: &random)
    let runLength = [1, 4, 30][Int(seed) % 3]
    var indices: [UInt32] = []
    while indices.count < count {
      let index = UInt32.random(in: 0..<UInt32(size), using: &random)
      indices += repeatElement(index, count: min(count - indices.count, Int.random(in: 1...runLength, using: &random)))
    }
    let bytes = Self.runs(indices, bitWidth: bitWidth, &random)
    var output: [Int64] = seed % 2 == 0 ? [] : [7, -7]
    let before = output
    var runs = try Self.decoder(bytes, bitWidth: bitWidth)
    try UnsafeParquetRuns.appendLookingUp(count, of: &runs, in: dictionary, to: &output)
    #expect(output == before + indices.map { dictionary[Int($0)] }, "seed \(seed)")
    // The same through `ParquetValues` (doubles), and the runs' indices themselves.
    var plain = try Self.decoder(bytes, bitWidth: bitWidth)
    var decoded: [UInt32] = []
    try plain.decode(count, into: &decoded)
    #expect(decoded == indices)
    var values = ParquetValues(type: 5, typeLength: 0)
    var dictionaryValues = ParquetValues(type: 5, typeLength: 0)
    dictionaryValues.doubles = dictionary.map { Double($0) / 4 }
    var again = try Self.decoder(bytes, bitWidth: bitWidth)
    try values.append(count, lookingUp: &again, in: dictionaryValues)
    #expect(values.doubles == indices.map { Double(dictionary[Int($0)]) / 4 })
  }

  @Test(arguments: 0..<40) func anIndexPastTheDictionaryOrShortRunsThrowAndChangeNothing(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 900)
    let size = [1, 3, 5, 9][Int(seed) % 4]
    let bitWidth = 4
    let count = Int.random(in: 1..<200, using: &random)
    var indices = (0..<count).map { _ in UInt32.random(in: 0..<UInt32(size), using: &random) }
    let dictionary = (0..<size).map { Double($0) + 0.5 }
    var bytes: [UInt8]
    var named: UInt32?
    if seed % 2 == 0 {
      // One index past the dictionary, in a run of either kind.
      let bad = Int.random(in: 0..<count, using: &random)
      let past = UInt32.random(in: UInt32(size)..<16, using: &random)
      named = past
      if Bool.random(using: &random) {
        for row in bad..<min(count, bad + 3) { indices[row] = past }
      } else {
        indices[bad] = past
      }
      bytes = Self.runs(indices, bitWidth: bitWidth, &random)
    } else {
      // Runs that end before `count` values.
      bytes = Self.runs(Array(indices.prefix(count / 2)), bitWidth: bitWidth, &random)
      bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
    }
    var output: [Double] = [1, 2, 3]
    var runs = try Self.decoder(bytes, bitWidth: bitWidth)
    let error = #expect(throws: ParquetError.self, "seed \(seed)") {
      try UnsafeParquetRuns.appendLookingUp(count, of: &runs, in: dictionary, to: &output)
    }
    #expect(output == [1, 2, 3])
    // The index named is the stream's first past the dictionary.
    if let named { #expect(error?.message.contains("index \(named) past") == true, "\(error?.message ?? "")") }
    if named == nil {
      // The indices alone: short runs throw too, appending nothing.
      var plain = try Self.decoder(bytes, bitWidth: bitWidth)
      var decoded: [UInt32] = [9]
      #expect(throws: ParquetError.self, "seed \(seed)") { try plain.decode(count, into: &decoded) }
      #expect(decoded == [9])
    }
  }

  @Test func anEmptyDictionaryThrowsForAnyIndex() throws {
    var random = SeededRandom(seed: 3)
    for indices: [UInt32] in [[0], [0, 0, 0, 0], [0, 1, 0, 1, 1]] {
      var runs = try Self.decoder(Self.runs(indices, bitWidth: 1, &random), bitWidth: 1)
      var output: [Int64] = []
      #expect(throws: ParquetError.self) {
        try UnsafeParquetRuns.appendLookingUp(indices.count, of: &runs, in: [Int64](), to: &output)
      }
      #expect(output.isEmpty)
    }
  }
}
