import FlowRuntime
import Foundation

/// A regular file read through `pread` into one reused buffer, for the block readers
/// (`UnsafeCSVBlockReader`, `CSVMorsels`): `fill` tops the buffer up from the file, `consume`
/// drops bytes from its front, `grow` doubles it (a record longer than the buffer).
///
/// The file's size when opened bounds the read: bytes appended meanwhile are not read, and a
/// file cut short meanwhile is an error (its torn last row is not data).
///
/// Invariants: `0 <= filled <= buffer.count` and `offset <= size`; `pread` writes at most
/// `buffer.count - filled` bytes at `filled`; the tail moved by `memmove` lies inside
/// `buffer`; the pointer handed to `withFilled`'s body is valid only during the call.
/// Checked in debug builds by `_checkInvariants` after each change.
struct UnsafeCSVFileBuffer {
  let file: CheckedFile
  /// The file's size when opened.
  let size: Int
  private(set) var buffer: [UInt8]
  /// Bytes of `buffer` holding file data, from its start.
  private(set) var filled = 0
  /// The file offset of the next byte to read.
  private(set) var offset = 0
  /// Whether the file's last byte has been read into the buffer.
  private(set) var atEnd = false

  /// A buffer of `capacity` bytes (at least 64) over `file`, whose size is `size`.
  init(_ file: CheckedFile, size: Int, capacity: Int) {
    self.file = file
    self.size = size
    buffer = [UInt8](repeating: 0, count: Swift.max(64, capacity))
    atEnd = size == 0
  }

  /// Reads from the file until the buffer is full or the file ends.
  ///
  /// - Throws: `NodeError` for a read error or a file cut short while it is read.
  mutating func fill() throws {
    while filled < buffer.count && !atEnd {
      let (filled, offset, size) = (self.filled, self.offset, self.size)
      let descriptor = file.descriptor
      let got = buffer.withUnsafeMutableBytes { bytes in
        pread(descriptor, bytes.baseAddress! + filled, Swift.min(bytes.count - filled, size - offset), off_t(offset))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw NodeError("cannot read \(file.path): \(String(cString: strerror(errno)))")
      }
      if got == 0 && offset < size {
        throw NodeError("\(file.path) changed size while it was read (\(size) bytes when opened, \(offset) now)")
      }
      self.filled += got
      self.offset += got
      if self.offset == size { atEnd = true }
    }
    _checkInvariants()
  }

  /// Drops the first `count` filled bytes (the rest moves to the front).
  mutating func consume(_ count: Int) {
    precondition(count >= 0 && count <= filled, "consume \(count) of \(filled)")
    let (filled, moved) = (self.filled, count)
    buffer.withUnsafeMutableBytes { bytes in
      _ = memmove(bytes.baseAddress!, bytes.baseAddress! + moved, filled - moved)
    }
    self.filled -= count
    _checkInvariants()
  }

  /// Twice the room (a record longer than the buffer).
  mutating func grow() {
    buffer.append(contentsOf: repeatElement(0, count: buffer.count))
  }

  /// Empties the buffer; the next `fill` reads from file offset `start`.
  mutating func restart(at start: Int) {
    precondition(start >= 0 && start <= size, "restart at \(start) of \(size)")
    filled = 0
    offset = start
    atEnd = start == size
  }

  /// `body` over the filled bytes.
  func withFilled<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    assert(filled >= 0 && filled <= buffer.count && offset >= 0 && offset <= size && atEnd == (offset == size),
           "filled \(filled) of \(buffer.count), offset \(offset) of \(size)")
    #endif
  }
}
