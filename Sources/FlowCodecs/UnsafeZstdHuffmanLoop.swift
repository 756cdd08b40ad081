/// The bulk of a Zstandard literals section's four Huffman streams (`ZstdLiterals`), decoded
/// side by side over buffer pointers: each stream's bits come from a 64-bit window kept in a
/// register, reloaded once per round of four symbols, and each symbol and its length from one
/// cell (`symbol | length << 8`), with no bounds check per symbol. The rows left and the
/// streams' last bits go through the checked decoder.
///
/// Invariants: `input`, the cells and the output are borrowed for the call and never escaped.
/// A round runs only while every stream holds at least `margin` bits and four rows are left
/// to every stream, so each stream's window (`UnsafeZstdBitWindow`) reloads with at least 64
/// bits left and then holds at least 57 bits below `remaining`. A symbol is
/// at most `log ≤ 11` bits, so the four peeks of a round (the last after at most 33 bits)
/// stay inside the window. A peek is masked to `log` bits and the cells are `1 << log`
/// (checked), so every cell read lies inside them; a row's four writes land at `row`,
/// `share + row`, `2·share + row` and `3·share + row`, below the output's count (checked).
enum UnsafeZstdHuffmanLoop {
  /// Bits every stream must hold for a round of four symbols.
  static let margin = 64

  /// Where the streams stand: the next row and each stream's bits left.
  struct Progress {
    var row: Int
    var remaining: (Int, Int, Int, Int)
  }

  /// Decodes rounds of four rows from `progress.row` while every stream holds `margin` bits and
  /// `row + 4 ≤ rows`; stream `k` (its bytes from `starts[k]` in `input`) writes row `r` at
  /// `output[k · share + r]`.
  static func decode(
    _ input: [UInt8], starts: (Int, Int, Int, Int), cells: [UInt16], log: Int, share: Int, rows: Int,
    _ progress: inout Progress, into output: inout [UInt8]
  ) {
    precondition(
      log >= 1 && log <= 11 && cells.count == 1 << log && rows >= 0 && rows <= share
        && 3 * share + rows <= output.count,
      "Internal inconsistency: Zstandard Huffman streams past their table or output")
    func inside(_ start: Int, _ bits: Int) -> Bool { start >= 0 && start + (bits + 7) / 8 <= input.count }
    let remaining = progress.remaining
    precondition(
      inside(starts.0, remaining.0) && inside(starts.1, remaining.1) && inside(starts.2, remaining.2)
        && inside(starts.3, remaining.3), "Internal inconsistency: a Huffman stream past its input")
    input.withUnsafeBytes { bytes in
      cells.withUnsafeBufferPointer { cells in
        output.withUnsafeMutableBufferPointer { output in
          loop(
            bytes.baseAddress!, starts: starts, cells: cells.baseAddress!, log: log, share: share, rows: rows,
            &progress, into: output.baseAddress!)
        }
      }
    }
  }

  /// The loop of `decode` over pointers.
  private static func loop(
    _ bytes: UnsafeRawPointer, starts: (Int, Int, Int, Int), cells: UnsafePointer<UInt16>, log: Int, share: Int,
    rows: Int, _ progress: inout Progress, into output: UnsafeMutablePointer<UInt8>
  ) {
    var one = UnsafeZstdBitWindow(stream: bytes + starts.0, remaining: progress.remaining.0)
    var two = UnsafeZstdBitWindow(stream: bytes + starts.1, remaining: progress.remaining.1)
    var three = UnsafeZstdBitWindow(stream: bytes + starts.2, remaining: progress.remaining.2)
    var four = UnsafeZstdBitWindow(stream: bytes + starts.3, remaining: progress.remaining.3)
    var row = progress.row
    defer { progress = Progress(row: row, remaining: (one.remaining, two.remaining, three.remaining, four.remaining)) }
    let mask = UInt64(1) &<< UInt64(log) &- 1
    let (first, second, third, fourth) = (output, output + share, output + 2 &* share, output + 3 &* share)
    while row &+ 4 <= rows,
      min(one.remaining, two.remaining, three.remaining, four.remaining) >= margin
    {
      one.reload()
      two.reload()
      three.reload()
      four.reload()
      for step in 0..<4 {
        first[row &+ step] = one.symbol(cells, log: log, mask: mask)
        second[row &+ step] = two.symbol(cells, log: log, mask: mask)
        third[row &+ step] = three.symbol(cells, log: log, mask: mask)
        fourth[row &+ step] = four.symbol(cells, log: log, mask: mask)
      }
      row &+= 4
    }
  }
}
