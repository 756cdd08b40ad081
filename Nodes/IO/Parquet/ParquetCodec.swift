import FlowCodecs

/// The compression codecs of Parquet pages (Thrift `CompressionCodec`), decoded by FlowCodecs.
enum ParquetCodec {
  /// The codec's name for messages.
  static func name(_ codec: Int) -> String {
    ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"].indices.contains(codec)
      ? ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"][codec] : "\(codec)"
  }

  /// Whether this reader decodes `codec`.
  static func isSupported(_ codec: Int) -> Bool { [0, 1, 2, 5, 6, 7].contains(codec) }

  /// The `size` bytes `data[range]` decompresses to with `codec`.
  ///
  /// - Throws: `ParquetError` for an unsupported codec, a corrupt stream, or one that does not
  ///   decompress to exactly `size` bytes.
  static func decompress(_ data: [UInt8], _ range: Range<Int>, codec: Int, size: Int) throws(ParquetError) -> [UInt8] {
    guard size > 0 else { return [] }
    let input = data[range]
    let output: [UInt8]
    do throws(CodecError) {
      switch codec {
      case 0: output = Array(input)
      case 1: output = try Snappy.decompress(input, limit: size)
      case 2:
        if Gzip.isGzip(Array(input.prefix(2))) {
          output = try Gzip.decompress(Array(input), limit: size)
        } else {
          // zlib (a 2-byte header and an Adler-32 after the DEFLATE data), as some writers use.
          guard input.count >= 2, input[input.startIndex] & 0x0F == 8 else {
            throw CodecError("no gzip or zlib header")
          }
          output = try Inflate.decompress(Array(input), from: 2, limit: size).output
        }
      case 5:
        do { output = try LZ4.decompressHadoop(input, limit: size) } catch {
          output = try LZ4.decompressBlock(input, limit: size)
        }
      case 6: output = try Zstd.decompress(data, in: range, limit: size)
      case 7: output = try LZ4.decompressBlock(input, limit: size)
      default: throw CodecError("codec \(name(codec)) is not supported yet")
      }
    } catch {
      throw ParquetError("\(name(codec)): \(error.message)")
    }
    guard output.count == size else {
      throw ParquetError("\(name(codec)) data of \(output.count) bytes, the page header says \(size)")
    }
    return output
  }
}
