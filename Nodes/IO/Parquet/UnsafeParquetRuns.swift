/// The next values of Parquet's RLE/bit-packed runs (`ParquetRLEDecoder`) written straight
/// into a new array, run by run: the values themselves (levels, dictionary indices), or the
/// dictionary entries they index. The array is then appended to the output, or becomes it for
/// a chunk's first page (`UnsafeParquetBytes.append`): no zeroed room, no array of indices.
///
/// Invariants: one loop over the runs (`piece`) for both. The new array holds exactly `count`
/// elements' room; each run is cut by the decoder to at most the values still missing
/// (`nextRun(limit:)`), so the elements a run initializes, from `initialized` on, lie inside
/// it, each initialized once, and the array's count is set to those initialized (a failing
/// run stops the loop: its elements, bitwise-copyable, are not counted and the array is
/// dropped). A packed run's bytes are checked by a precondition to
/// lie inside the page before they are unpacked (`UnsafeParquetBytes.unpack`, whose word
/// loads stay inside them). A lookup reads the dictionary at an index clamped to its last
/// entry, the run's largest index checked after it; a repeated run's index is checked first.
enum UnsafeParquetRuns {
  /// Appends the next `count` values of `runs` to `output`.
  ///
  /// - Throws: `ParquetError` at the first run that ends early or is malformed; `output` is
  ///   then unchanged.
  static func appendDecoded(_ count: Int, of runs: inout ParquetRLEDecoder, to output: inout [UInt32])
    throws(ParquetError)
  {
    let bitWidth = runs.bitWidth
    let piece: [UInt32] = try piece(count, of: &runs) { run, first, raw in
      switch run {
      case .repeated(let value, let taken):
        first.initialize(repeating: value, count: taken)
      case .packed(let start, let taken):
        if bitWidth == 0 {
          first.initialize(repeating: 0, count: taken)
        } else {
          UnsafeParquetBytes.unpack(taken, bitWidth: bitWidth, raw, at: start) { index, value in
            (first + index).initialize(to: value)
          }
        }
      }
      return nil
    }
    UnsafeParquetBytes.append(piece, to: &output)
  }

  /// Appends `dictionary[index]` for each of the next `count` dictionary indices of `runs`,
  /// decoded straight into the values (no array of indices): a bit-packed run's lookups are
  /// clamped to the dictionary and the largest index checked after the run.
  ///
  /// - Throws: `ParquetError` at the first run that ends early or holds an index past the
  ///   dictionary (naming the run's first such index); `output` is then unchanged.
  static func appendLookingUp<T: BitwiseCopyable>(
    _ count: Int, of runs: inout ParquetRLEDecoder, in dictionary: [T], to output: inout [T]
  ) throws(ParquetError) {
    let size = dictionary.count, bitWidth = runs.bitWidth
    func past(_ index: UInt32) -> ParquetError {
      ParquetError("a dictionary index \(index) past the dictionary's \(size) values")
    }
    let piece: [T] = try dictionary.withUnsafeBufferPointer { dictionary throws(ParquetError) in
      try Self.piece(count, of: &runs) { run, first, raw in
        switch run {
        case .repeated(let index, let taken):
          guard Int(index) < size else { return past(index) }
          first.initialize(repeating: dictionary[Int(index)], count: taken)
        case .packed(let start, let taken):
          // The first index of the run past the dictionary, for the message (a failure only).
          func firstPast() -> UInt32 {
            var found: UInt32?
            if bitWidth == 0 { return 0 }
            UnsafeParquetBytes.unpack(taken, bitWidth: bitWidth, raw, at: start) { _, value in
              if found == nil, Int(value) >= size { found = value }
            }
            return found ?? 0
          }
          guard size > 0 else { return past(firstPast()) }
          let last = UInt32(truncatingIfNeeded: size - 1)
          var largest: UInt32 = 0
          if bitWidth == 0 {
            first.initialize(repeating: dictionary[0], count: taken)
          } else {
            UnsafeParquetBytes.unpack(taken, bitWidth: bitWidth, raw, at: start) { index, value in
              largest = max(largest, value)
              (first + index).initialize(to: dictionary[Int(min(value, last))])
            }
          }
          guard largest <= last else { return past(firstPast()) }
        }
        return nil
      }
    }
    UnsafeParquetBytes.append(piece, to: &output)
  }

  /// A new array of the next `count` values of `runs`, run by run: `write(run, first, raw)`
  /// initializes the run's values (at least one) from `first`, reading a packed run's bytes
  /// in `raw` (the page's, the run's checked to lie inside them), or returns the error that
  /// stops the loop; that run's elements are then not counted (they are of a bitwise-copyable
  /// type: nothing to release) and the array is dropped.
  @inline(__always)
  private static func piece<T: BitwiseCopyable>(
    _ count: Int, of runs: inout ParquetRLEDecoder,
    _ write: (ParquetRLEDecoder.Run, UnsafeMutablePointer<T>, UnsafeRawBufferPointer) -> ParquetError?
  ) throws(ParquetError) -> [T] {
    guard count > 0 else { return [] }
    let bitWidth = runs.bitWidth, bytes = runs.bytes
    var failure: ParquetError?
    let piece = [T](unsafeUninitializedCapacity: count) { target, initialized in
      initialized = 0
      guard let base = target.baseAddress else { return }
      bytes.withUnsafeBytes { raw in
        while initialized < count {
          let run: ParquetRLEDecoder.Run
          do throws(ParquetError) { run = try runs.nextRun(limit: count - initialized) } catch {
            failure = error
            return
          }
          let taken: Int
          switch run {
          case .repeated(_, let count): taken = count
          case .packed(let start, let count):
            taken = count
            precondition(
              start >= 0 && raw.count - start >= (count * bitWidth + 7) / 8, "a bit-packed run past its bytes")
          }
          guard taken > 0 else { continue }
          if let error = write(run, base + initialized, raw) {
            failure = error
            return
          }
          initialized += taken
        }
      }
    }
    if let failure { throw failure }
    return piece
  }
}
