import Foundation

/// Reads lines from a file handle in 64 KiB chunks: memory stays flat in the file's size.
///
/// A line ends at `\n` (a `\r` before it is dropped too); the last line need not end with one.
/// Bytes that are not UTF-8 are repaired (U+FFFD). Not thread-safe: one source task owns it.
/// Made from bytes already in memory (a decompressed `.gz` file), it reads those.
final class ChunkedLineReader {
  private let handle: FileHandle?
  private let closes: Bool
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  static let chunkSize = 1 << 16

  init(handle: FileHandle, closes: Bool) {
    self.handle = handle
    self.closes = closes
  }

  /// A reader of the lines of `bytes`.
  init(bytes: [UInt8]) {
    handle = nil
    closes = false
    buffer = bytes
    atEnd = true
  }

  /// The next line, or `nil` at the end of the file.
  func nextLine() throws -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        return line
      }
      buffer.removeFirst(start)
      start = 0
      let chunk = try handle?.read(upToCount: Self.chunkSize) ?? Data()
      if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
    }
  }

  func close() {
    if closes { try? handle?.close() }
  }
}
