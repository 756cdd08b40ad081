import FlowRuntime

/// Turns a flat column's Parquet values into a table column, as its physical and logical
/// types say: integers (signed, unsigned, decimals at scale 0 that fit 64 bits), numbers
/// (floats, other decimals), bools, and text (strings, UTF-8 byte arrays, dates as
/// `YYYY-MM-DD`, timestamps and times as ISO text).
enum ParquetColumnConversion {
  /// The column of `values` (one per valid row) with `valid` (nil: no nulls).
  ///
  /// - Throws: `ParquetError` naming the column for a type it cannot convert, a `UINT64` above
  ///   `Int64.max`, or a byte array that is not UTF-8.
  static func column(_ element: ParquetSchemaElement, _ values: ParquetValues, valid flags: [Bool]?)
    throws(ParquetError)
    -> Column
  {
    let name = element.name
    let annotation = element.annotation
    let hasNulls = flags?.contains(false) ?? false
    // Flags for every row only where a path needs them (no array for a column without nulls).
    var valid: [Bool] { flags ?? [Bool](repeating: true, count: values.count) }
    switch (values.type, annotation) {
    case (0, nil):
      return expand(.bool, valid) { builder, index in builder.append(bool: values.bools[index]) }
    case (1, nil), (2, nil), (1, .integer(_, true)?), (2, .integer(_, true)?), (1, .decimal(0, _)?),
      (2, .decimal(0, _)?):
      if !hasNulls { return Column(.integer(values.integers)) }
      return expand(.integer, valid) { builder, index in builder.append(integer: values.integers[index]) }
    case (1, .integer(_, false)?):
      return expand(.integer, valid) { builder, index in
        builder.append(integer: Int64(UInt32(truncatingIfNeeded: values.integers[index])))
      }
    case (2, .integer(_, false)?):
      if let index = values.integers.firstIndex(where: { $0 < 0 }) {
        let value = UInt64(bitPattern: values.integers[index])
        throw ParquetError(column: name, "the UINT64 value \(value) is above the largest integer \(Int64.max)")
      }
      return expand(.integer, valid) { builder, index in builder.append(integer: values.integers[index]) }
    case (1, .decimal(let scale, _)?), (2, .decimal(let scale, _)?):
      let divisor = power(scale)
      return expand(.number, valid) { builder, index in builder.append(number: Double(values.integers[index]) / divisor)
      }
    case (1, .date?):
      return text(valid) { bytes, index in ParquetTimeText.appendDate(Int(values.integers[index]), to: &bytes) }
    case (1, .time(let perSecond, _)?), (2, .time(let perSecond, _)?):
      return text(valid) { bytes, index in
        ParquetTimeText.appendTime(values.integers[index], perSecond: perSecond, to: &bytes)
      }
    case (2, .timestamp(let perSecond, let utc)?):
      return timestamps(values.integers, perSecond: perSecond, utc: utc, valid)
    case (3, nil):
      return timestamps(values.integers, perSecond: 1_000_000_000, utc: false, valid)
    case (4, nil), (5, nil):
      if !hasNulls { return Column(.number(values.doubles)) }
      return expand(.number, valid) { builder, index in builder.append(number: values.doubles[index]) }
    case (6, .decimal(let scale, _)?), (7, .decimal(let scale, _)?):
      return try decimals(values, scale: scale, valid)
    case (7, .uuid?) where values.typeLength == 16:
      return text(valid) { bytes, index in
        ParquetTimeText.appendUUID(values.bytes[values.offsets[index]..<values.offsets[index + 1]], to: &bytes)
      }
    case (6, nil), (7, nil), (6, .string?), (6, .enumeration?), (6, .json?):
      for index in 0..<values.count
      where !ParquetUTF8.isValid(values.bytes, values.offsets[index]..<values.offsets[index + 1]) {
        throw ParquetError(column: name, "value \(index + 1) is a byte array that is not UTF-8 text")
      }
      let strings = StringColumn(validUTF8: values.bytes, offsets: values.offsets)
      if hasNulls {
        var builder = ColumnBuilder(.string, capacity: valid.count)
        var next = 0
        for flag in valid {
          if flag { builder.append(utf8: strings.utf8(next)); next += 1 } else { builder.appendNull() }
        }
        return builder.build()
      }
      return Column(.string(strings))
    default:
      throw ParquetError(column: name, "the type \(describe(element)) is not supported")
    }
  }

  /// A column of `type` with a cell per row of `valid` (each valid row takes the next value).
  private static func expand(_ type: ColumnType, _ valid: [Bool], _ append: (inout ColumnBuilder, Int) -> Void)
    -> Column
  {
    var builder = ColumnBuilder(type, capacity: valid.count)
    var next = 0
    for flag in valid {
      if flag { append(&builder, next); next += 1 } else { builder.appendNull() }
    }
    return builder.build()
  }

  /// A text column whose valid rows `write` appends in turn.
  private static func text(_ valid: [Bool], _ write: (inout [UInt8], Int) -> Void) -> Column {
    var builder = ColumnBuilder(.string, capacity: valid.count)
    var scratch: [UInt8] = []
    var next = 0
    for flag in valid {
      if flag {
        scratch.removeAll(keepingCapacity: true)
        write(&scratch, next)
        builder.append(utf8: scratch)
        next += 1
      } else {
        builder.appendNull()
      }
    }
    return builder.build()
  }

  /// Timestamps as ISO text with as many fraction digits (0, 3, 6 or 9) as the column needs.
  private static func timestamps(_ values: [Int64], perSecond: Int64, utc: Bool, _ valid: [Bool]) -> Column {
    var digits = 0
    for value in values {
      let fraction = Int64(value % perSecond).magnitude
      if fraction == 0 { continue }
      let nanoseconds = fraction * UInt64(1_000_000_000 / perSecond)
      digits = max(digits, nanoseconds % 1_000_000 != 0 ? (nanoseconds % 1_000 != 0 ? 9 : 6) : 3)
      if digits == 9 { break }
    }
    return text(valid) { bytes, index in
      ParquetTimeText.appendTimestamp(values[index], perSecond: perSecond, digits: digits, utc: utc, to: &bytes)
    }
  }

  /// Byte-array decimals (big-endian two's complement): integers at scale 0 when they fit in
  /// 64 bits, else numbers.
  private static func decimals(_ values: ParquetValues, scale: Int, _ valid: [Bool]) throws(ParquetError) -> Column {
    var exact: [Int64?] = []
    var approximate: [Double] = []
    for index in 0..<values.count {
      let bytes = values.bytes[values.offsets[index]..<values.offsets[index + 1]]
      let negative = (bytes.first ?? 0) & 0x80 != 0
      var double = 0.0
      var integer: Int64? = 0
      for byte in bytes {
        let digit = negative ? ~byte : byte
        double = double * 256 + Double(digit)
        if let current = integer {
          let (shifted, overflow) = current.multipliedReportingOverflow(by: 256)
          integer = overflow ? nil : shifted | Int64(digit)
        }
      }
      if negative {
        double = -(double + 1)
        integer = integer.map { -$0 - 1 }
      }
      exact.append(integer)
      approximate.append(double)
    }
    if scale == 0, !exact.contains(where: { $0 == nil }) {
      return expand(.integer, valid) { builder, index in builder.append(integer: exact[index]!) }
    }
    let divisor = power(scale)
    return expand(.number, valid) { builder, index in
      builder.append(number: exact[index].map { Double($0) / divisor } ?? approximate[index] / divisor)
    }
  }

  /// 10 to the `scale` (a negative scale multiplies).
  private static func power(_ scale: Int) -> Double {
    var result = 1.0
    for _ in 0..<min(abs(scale), 400) { result *= 10 }
    return scale >= 0 ? result : 1 / result
  }

  /// The column's physical and logical types, for messages.
  static func describe(_ element: ParquetSchemaElement) -> String {
    let physical = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]
    let type = element.type.map { physical.indices.contains($0) ? physical[$0] : "\($0)" } ?? "group"
    guard let annotation = element.annotation else { return type }
    return "\(type) (\(annotation))"
  }
}
