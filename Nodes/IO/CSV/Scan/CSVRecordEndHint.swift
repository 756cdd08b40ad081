/// What the earlier tries of one block learned before it grew: its first `bytes` bytes hold no
/// record end, and `quotes` quote bytes (`nil`: not counted, because they hold no line feed at
/// all).
///
/// A record longer than the block (one huge field) makes the block reader try the same block
/// start again after each doubling of its buffer (`UnsafeCSVFileBuffer.grow`), which keeps the
/// bytes already read at the front. Whether a line feed ends a record depends only on the bytes
/// before it (the quote parity), so the next try searches only the bytes after `bytes`, starting
/// from `quotes`: each byte of the long record is searched once by each search (line feeds,
/// quotes), not once per doubling.
///
/// Invariants: `0 <= bytes`, `0 <= quotes <= bytes` when counted; the hint describes the bytes at the start
/// of the block it was made for and is reset (`CSVRecordEndHint()`) as soon as any byte of the
/// block is consumed.
struct CSVRecordEndHint: Equatable {
  /// The leading bytes known to hold no record end.
  var bytes = 0
  /// The quote bytes among them, if counted (`nil`: they hold no line feed).
  var quotes: Int? = 0
}
