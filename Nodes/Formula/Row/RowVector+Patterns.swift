import FlowRuntime

/// The row-formula functions that read a pattern or a spec per row: `like(s, pattern)` and
/// `format(x, spec)`. A row's pattern or spec is compiled once and kept while the next rows
/// repeat it (the usual case: a literal, broadcast).
extension RowVector {
  /// `like(s, pattern)` of each string and its row's pattern (``LikePattern``).
  ///
  /// - Complexity: O(bytes × pattern tokens) at worst; O(bytes) for the usual patterns.
  static func like(_ strings: StringColumn, _ patterns: StringColumn) -> [Bool] {
    let (bytes, offsets) = strings.flatLayout
    let (patternBytes, patternOffsets) = patterns.flatLayout
    var result = [Bool](repeating: false, count: strings.count)
    var compiled: (range: Range<Int>, pattern: LikePattern)?
    for row in result.indices {
      let range = patternOffsets[row]..<patternOffsets[row + 1]
      let pattern: LikePattern
      if let last = compiled, last.range == range || patternBytes[last.range].elementsEqual(patternBytes[range]) {
        pattern = last.pattern
      } else {
        pattern = LikePattern(patternBytes[range])
        compiled = (range, pattern)
      }
      result[row] = pattern.matches(bytes, from: offsets[row], to: offsets[row + 1])
    }
    return result
  }

  /// `like(s, "literal pattern")`: the pattern compiled once, never broadcast to a column;
  /// a dictionary column matches each entry once and maps its codes.
  ///
  /// - Complexity: O(bytes) for a pattern without `_` (O(dictionary bytes + rows) for a
  ///   dictionary column); as ``like(_:_:)`` otherwise.
  static func like(_ value: RowVector, pattern: LikePattern, count: Int) -> RowVector {
    guard case .string(let strings, let valid) = value else { return .null }
    if let dictionary = strings.dictionary, let codes = strings.codes {
      let entries = like(dictionary, pattern: pattern)
      return .bool(codes.map { entries[Int($0)] }, valid: valid)
    }
    return .bool(like(strings, pattern: pattern), valid: valid)
  }

  /// Whether each string of a column matches `pattern`.
  private static func like(_ strings: StringColumn, pattern: LikePattern) -> [Bool] {
    let (bytes, offsets) = strings.flatLayout
    var result = [Bool](repeating: false, count: strings.count)
    for row in result.indices {
      result[row] = pattern.matches(bytes, from: offsets[row], to: offsets[row + 1])
    }
    return result
  }

  /// `format(x, spec)`: each valid row's number written with its row's spec (the specs of a
  /// `format` placeholder, ``NumberFormat``).
  ///
  /// - Throws: `fail`'s error naming the row (from 1) for a spec `format` does not know, or a
  ///   number that is not whole for `d`.
  static func formatted(
    _ numbers: RowVector, _ specs: StringColumn, valid: [Bool]?, count: Int, memory: RunLimits?,
    fail: (String) -> FormulaError
  ) throws(FormulaError) -> RowVector {
    var result = StringColumn()
    result.reserveCapacity(strings: count, bytes: count * 8)
    var compiled: (spec: String, format: NumberFormat)?
    for row in 0..<count {
      guard valid?[row] ?? true else {
        result.appendEmpty()
        continue
      }
      let spec = specs[row]
      let format: NumberFormat
      if let last = compiled, last.spec == spec {
        format = last.format
      } else {
        guard !spec.isEmpty, let known = NumberFormat(Substring(spec)) else {
          throw fail(
            "'format' at row \(row + 1): unknown number format \"\(ToNumberNode.shown(spec))\" "
              + "(formats: \(NumberFormat.examples))")
        }
        format = known
        compiled = (spec, known)
      }
      let value: Value
      switch numbers {
      case .integer(let values, _): value = .integer(values[row])
      case .number(let values, _): value = .number(values[row])
      default: value = .null
      }
      do throws(NumberFormat.Problem) {
        result.append(try format.text(of: value))
      } catch {
        switch error {
        case .notANumber(let type): throw fail("'format' at row \(row + 1): needs a number, got \(type)")
        case .notWhole(let text):
          throw fail("'format' at row \(row + 1): the format 'd' needs a whole number, got \(text)")
        }
      }
      if row & 0xFFFF == 0xFFFF, let memory {
        do { try memory.checkMemory(adding: result.utf8Count, for: "the strings it builds") } catch {
          throw fail(error.message)
        }
      }
    }
    return .string(result, valid: valid)
  }
}
