/// One state of a sequences FSE table merged with its symbol's value (what zstd calls a
/// sequence symbol): the symbol's baseline and extra bits (a literal or match length code's,
/// or an offset code's `1 << code` and `code` bits), the bits of the next state and its
/// baseline. The decoding loop (`UnsafeZstdSequenceLoop`) takes all of a state's facts from
/// one cell, with no lookup of the code's value after the state's.
///
/// Invariant: the cells are the table's, one per state, so a state of the table indexes them
/// and each next state (`next` plus `bits` bits) stays below their count (`ZstdFSE`).
struct ZstdSequenceCell: Sendable {
  var base: UInt32
  var extra: UInt8
  var bits: UInt8
  var next: UInt16

  /// The cells of a literal or match length table, `values[code]` being a code's baseline
  /// and extra bits.
  ///
  /// - Precondition: every symbol of `table` is a code of `values` (the tables are read with
  ///   their codes' largest symbol).
  static func cells(_ table: ZstdFSE, values: [(Int, Int)]) -> [ZstdSequenceCell] {
    table.table.map { entry in
      let (base, extra) = values[Int(entry.symbol)]
      return ZstdSequenceCell(base: UInt32(base), extra: UInt8(extra), bits: entry.bits, next: entry.baseline)
    }
  }

  /// The cells of an offsets table: code `c` reads `c` bits above `1 << c`.
  ///
  /// - Precondition: every symbol of `table` is at most 31.
  static func offsetCells(_ table: ZstdFSE) -> [ZstdSequenceCell] {
    table.table.map { entry in
      precondition(entry.symbol <= 31, "Internal inconsistency: a Zstandard offset code past 31")
      return ZstdSequenceCell(
        base: UInt32(1) << UInt32(entry.symbol), extra: entry.symbol, bits: entry.bits, next: entry.baseline)
    }
  }
}
