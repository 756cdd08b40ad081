/// The bytes one connection has yet to send, as the chunks they were queued in (responses,
/// event-stream chunks), the first one partly sent.
///
/// Queuing a chunk and sending part of one cost O(that chunk): nothing already queued is copied
/// again, so a connection with a long queue costs linear time, not quadratic. Invariant:
/// `count` is the sum of the unsent bytes of `chunks[head...]`, and `offset` is less than the
/// length of `chunks[head]` whenever `head < chunks.count`.
struct HTTPOutgoingBytes {
  private var chunks: [[UInt8]] = []
  private var head = 0
  private var offset = 0
  /// The bytes not yet sent.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Queues `bytes` after what is queued (the array is kept, not copied).
  mutating func append(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    chunks.append(bytes)
    count += bytes.count
  }

  /// The next bytes to send (part of one chunk), or nil when nothing is queued.
  var next: ArraySlice<UInt8>? { head < chunks.count ? chunks[head][offset...] : nil }

  /// Marks `sent` bytes of ``next`` as sent.
  mutating func consume(_ sent: Int) {
    guard head < chunks.count, sent > 0 else { return }
    offset += sent
    count -= sent
    guard offset >= chunks[head].count else { return }
    head += 1
    offset = 0
    if head == chunks.count {
      chunks.removeAll(keepingCapacity: chunks.count <= 64)
      head = 0
    } else if head >= 64 && head * 2 >= chunks.count {
      chunks.removeFirst(head)  // moves chunk references, never their bytes
      head = 0
    }
  }
}
