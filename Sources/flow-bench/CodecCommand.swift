import FlowCodecs
import Foundation

/// `flow-bench codec snappy|lz4|zstd|gzip compress|decompress IN OUT`: one of our codecs over a
/// file, so that `Scripts/verify-codecs.py` can check them against Python's packages in both
/// directions (their output decoded by us, ours by them). LZ4 is the raw block format; a
/// decompressed file is bounded by `limit` (256 MiB).
enum CodecCommand {
  static let limit = 256 << 20

  static func main(_ arguments: [String]) -> Never {
    guard arguments.count == 4, ["snappy", "lz4", "zstd", "gzip"].contains(arguments[0]),
      ["compress", "decompress"].contains(arguments[1])
    else {
      fail("usage: flow-bench codec snappy|lz4|zstd|gzip compress|decompress IN OUT")
    }
    guard let data = FileManager.default.contents(atPath: arguments[2]) else { fail("cannot read \(arguments[2])") }
    let input = [UInt8](data)
    let output: [UInt8]
    do throws(CodecError) {
      switch (arguments[0], arguments[1]) {
      case ("snappy", "compress"): output = Snappy.compress(input)
      case ("snappy", _): output = try Snappy.decompress(input, limit: limit)
      case ("lz4", "compress"): output = LZ4.compressBlock(input)
      case ("lz4", _): output = try LZ4.decompressBlock(input[...], limit: limit)
      case ("zstd", "compress"): output = Zstd.compress(input)
      case ("zstd", _): output = try Zstd.decompress(input[...], limit: limit)
      case ("gzip", "compress"): output = Gzip.compress(input)
      default: output = try Gzip.decompress(input, limit: limit)
      }
    } catch {
      fail("\(arguments[0]) \(arguments[1]) \(arguments[2]): \(error.message)")
    }
    guard FileManager.default.createFile(atPath: arguments[3], contents: Data(output)) else {
      fail("cannot write \(arguments[3])")
    }
    exit(0)
  }

  private static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("flow-bench codec: \(message)\n".utf8))
    exit(2)
  }
}
