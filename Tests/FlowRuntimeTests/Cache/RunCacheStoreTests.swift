import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// The run cache's store: SHA-256 against FIPS vectors; entries round-trip every value shape
/// (tables with nulls and dictionary strings included); a truncated, bit-flipped or
/// foreign-version entry is ignored with a warning and removed; eviction keeps the most
/// recently used within the bound.
@Suite struct RunCacheStoreTests {
  static func folder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-runcache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  static func cache(
    _ root: String, maximumBytes: Int = RunCache.defaultMaximumBytes,
    warnings: Locked<[String]> = Locked([])
  ) throws -> RunCache {
    try RunCache(
      directory: root + "/.flow-cache", writableRoots: [root], maximumBytes: maximumBytes, productVersion: "test",
      warn: { line in warnings.withLock { $0.append(line) } })
  }

  static func key(_ text: String) -> CacheKey { SHA256.digest(Array(text.utf8)) }

  @Test func sha256MatchesTheStandardVectors() {
    #expect(SHA256.digest([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.digest(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hex
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    // Fed in pieces, the same digest.
    var pieces = SHA256()
    for byte in Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8) { pieces.update([byte]) }
    #expect(pieces.finalize().hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  /// A random value: scalars, nested lists and records, tables of every column type with
  /// nulls, flat and dictionary strings.
  static func value(_ random: inout SeededRandom, depth: Int = 0) -> Value {
    switch Int.random(in: 0..<(depth < 2 ? 8 : 5), using: &random) {
    case 0: return .null
    case 1: return .number(Double.random(in: -1e6...1e6, using: &random))
    case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
    case 3: return .bool(Bool.random(using: &random))
    case 4:
      return .string(
        String((0..<Int.random(in: 0..<6, using: &random)).map { _ in "aé😀\n,".randomElement(using: &random)! }))
    case 5: return .list((0..<Int.random(in: 0..<4, using: &random)).map { _ in value(&random, depth: depth + 1) })
    case 6:
      var fields = Record()
      // Names in no sorted order: a record's order is kept (equality compares it).
      for _ in 0..<Int.random(in: 0..<4, using: &random) {
        fields["f\(Int.random(in: 0..<50, using: &random))"] = value(&random, depth: depth + 1)
      }
      return .record(fields)
    default: return .table(table(&random))
    }
  }

  static func table(_ random: inout SeededRandom) -> Table {
    let rows = Int.random(in: 0..<150, using: &random)
    var columns: [(name: String, column: Column)] = []
    for index in 0..<Int.random(in: 0..<5, using: &random) {
      let validity =
        Bool.random(using: &random) ? nil : Validity((0..<rows).map { _ in Int.random(in: 0..<4, using: &random) != 0 })
      let storage: Column.Storage
      switch Int.random(in: 0..<5, using: &random) {
      case 0: storage = .integer((0..<rows).map { _ in Int64.random(in: -1_000...1_000, using: &random) })
      case 1: storage = .number((0..<rows).map { _ in Double.random(in: -1...1, using: &random) })
      case 2: storage = .bool((0..<rows).map { _ in Bool.random(using: &random) })
      case 3:
        storage = .string(
          StringColumn(
            (0..<rows).map { _ in String(repeating: "x", count: Int.random(in: 0..<4, using: &random)) + "é" }))
      default:
        let dictionary = StringColumn(["red", "green", "blue", ""])
        storage = .string(
          StringColumn(dictionary: dictionary, codes: (0..<rows).map { _ in UInt32.random(in: 0..<4, using: &random) }))
      }
      columns.append(("c\(index)", Column(storage, validity: validity)))
    }
    return (try? Table(names: columns.map(\.name), columns: columns.map(\.column), rowCount: rows)) ?? Table()
  }

  @Test(arguments: 0..<200) func entriesRoundTripEveryValue(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let entry = CacheEntry(
      outputs: (0..<Int.random(in: 1..<4, using: &random)).map { ("p\($0)", Self.value(&random)) },
      target: Bool.random(using: &random) ? FileIdentity(device: 1, inode: 2, size: 3, modified: -4) : nil)
    let key = Self.key("seed \(seed)")
    let bytes = try #require(CacheEntryCodec.encode(entry, key: key))
    #expect(CacheEntryCodec.encodedSize(entry) == bytes.count)
    let decoded = try CacheEntryCodec.decode(bytes, key: key)
    #expect(decoded == entry)
    // Dictionary strings stay dictionary strings.
    for (original, back) in zip(entry.outputs, decoded.outputs) {
      if case .table(let a) = original.value, case .table(let b) = back.value {
        for (x, y) in zip(a.columns, b.columns) {
          if case .string(let s) = x.storage, case .string(let t) = y.storage {
            #expect(s.isDictionaryEncoded == t.isDictionaryEncoded)
          }
        }
      }
    }
    // Any truncation and any one flipped bit is refused, never trusted, never a trap.
    let cut = Int.random(in: 0..<bytes.count, using: &random)
    #expect(throws: CacheEntryError.self) { try CacheEntryCodec.decode(Array(bytes[..<cut]), key: key) }
    var flipped = bytes
    flipped[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
    #expect(throws: CacheEntryError.self) { try CacheEntryCodec.decode(flipped, key: key) }
    #expect(throws: CacheEntryError.self) { try CacheEntryCodec.decode(bytes, key: Self.key("another")) }
  }

  /// An entry larger than the writer's buffer is written in several chunks, the checksum
  /// running across them; every chunk boundary falls inside a column.
  @Test func anEntryOfManyChunksRoundTripsThroughTheFolder() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let rows = 700_001
    let table = try Table(
      names: ["n", "x", "s"],
      columns: [
        Column(.integer((0..<rows).map { Int64($0 &* 7919) })), Column(.number((0..<rows).map { Double($0) / 3 })),
        Column(.string(StringColumn((0..<rows).map { $0 % 3 == 0 ? "ab" : "c" })))
      ], rowCount: rows)
    let entry = CacheEntry(outputs: [("table", .table(table))])
    let size = try #require(CacheEntryCodec.encodedSize(entry))
    #expect(size > 4 * UnsafeCacheEntrySink.chunkSize)
    let cache = try Self.cache(root)
    #expect(try cache.store(entry, under: Self.key("big")) == size)
    let path = cache.directory + "/" + Self.key("big").hex + RunCache.entrySuffix
    #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == size)
    #expect(cache.load(Self.key("big")) == entry)
    // One flipped bit in the last chunk is found.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[size - 100] ^= 0x10
    #expect(throws: CacheEntryError("checksum mismatch")) { try CacheEntryCodec.decode(bytes, key: Self.key("big")) }
  }

  @Test func truncatedFlippedAndForeignEntriesAreIgnoredWithAWarningAndReplaced() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let warnings = Locked<[String]>([])
    let cache = try Self.cache(root, warnings: warnings)
    let entry = CacheEntry(outputs: [("value", .integer(42))])
    let damages: [(String, ([UInt8]) -> [UInt8])] = [
      ("truncated (88 bytes)", { Array($0.dropLast(3)) }),
      (
        "checksum mismatch",
        { bytes in
          var copy = bytes; copy[copy.count - 1] ^= 4; return copy
        }
      ),
      (
        "format version 99, expected \(CacheEntryCodec.formatVersion)",
        { bytes in
          var copy = bytes; copy[8] = 99; return copy
        }
      )
    ]
    for (index, (reason, damage)) in damages.enumerated() {
      let key = Self.key("entry \(index)")
      try cache.store(entry, under: key)
      #expect(cache.load(key) == entry)
      let path = cache.directory + "/" + key.hex + RunCache.entrySuffix
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      try Data(damage(bytes)).write(to: URL(fileURLWithPath: path))
      #expect(cache.load(key) == nil)
      #expect(warnings.withLock { $0.last ?? "" }.contains("ignored (\(reason))"), "\(warnings.withLock { $0 })")
      #expect(!FileManager.default.fileExists(atPath: path))
      try cache.store(entry, under: key)
      #expect(cache.load(key) == entry)
    }
    #expect(warnings.withLock { $0.count } == 3)
  }

  @Test func evictionKeepsTheMostRecentlyUsedWithinTheBound() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let entry = CacheEntry(outputs: [("text", .string(String(repeating: "x", count: 900)))])
    let size = try #require(CacheEntryCodec.encode(entry, key: Self.key("a"))).count
    let cache = try Self.cache(root, maximumBytes: size * 3)
    for name in ["a", "b", "c", "d"] {
      try cache.store(entry, under: Self.key(name))
      // Distinct times, oldest first, without sleeping.
      let path = cache.directory + "/" + Self.key(name).hex + RunCache.entrySuffix
      let time = Date(timeIntervalSince1970: 1_000_000 + Double(["a", "b", "c", "d"].firstIndex(of: name)!))
      try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
    }
    #expect(cache.statistics() == RunCache.Statistics(entries: 4, bytes: size * 4))
    #expect(cache.load(Self.key("a")) != nil)  // a hit makes "a" the most recent
    #expect(cache.evict() == 1)
    #expect(cache.statistics().bytes <= size * 3)
    #expect(cache.load(Self.key("b")) == nil)
    #expect(cache.load(Self.key("a")) != nil && cache.load(Self.key("d")) != nil)
    #expect(cache.clear() == 3 && cache.statistics().entries == 0)
  }
}
