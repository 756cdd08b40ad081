import FlowGraph

extension Table {
  /// The table as JSON: an array of row objects, members in column order, nulls as `null`,
  /// non-finite numbers as the strings `"nan"`, `"inf"`, `"-inf"` (Reference.md, "Values and types").
  public var jsonRows: JSONValue {
    let columns = storage.columns
    let names = storage.names
    var rows: [JSONValue] = []
    rows.reserveCapacity(rowCount)
    for row in 0..<rowCount {
      var members: [JSONMember] = []
      members.reserveCapacity(columns.count)
      for (index, column) in columns.enumerated() {
        members.append(JSONMember(key: names[index], value: column[row].jsonValue))
      }
      rows.append(.object(JSONObject(members)))
    }
    return .array(rows)
  }

  /// A table from JSON row objects (what `readJSON` does with an array of objects).
  ///
  /// Columns appear in order of first appearance over the rows; a row that lacks a column has
  /// null there. A column is `integer` if every non-null cell is an integer (held exactly) or a
  /// whole `Double` within Int64 range, else `number` if every one is a number, else `bool` or `string` if all are; a column
  /// of nulls only is `string`.
  ///
  /// - Returns: `nil` if some element is not an object, some cell is an array or object, a
  ///   column mixes types (then the JSON stays a plain list), or a key repeats within a row.
  public init?(jsonRows rows: [JSONValue]) {
    var names: [String] = []
    var index: [String: Int] = [:]
    var cells: [[JSONValue]] = []
    for (rowNumber, row) in rows.enumerated() {
      guard case .object(let object) = row else { return nil }
      var seen = Set<String>()
      for member in object.members {
        guard seen.insert(member.key).inserted else { return nil }
        let column: Int
        if let known = index[member.key] {
          column = known
        } else {
          column = names.count
          index[member.key] = column
          names.append(member.key)
          cells.append([JSONValue](repeating: .null, count: rowNumber))
        }
        cells[column].append(member.value)
      }
      for column in cells.indices where cells[column].count == rowNumber { cells[column].append(.null) }
    }
    var columns: [Column] = []
    for column in cells {
      guard let built = Self.column(ofJSON: column) else { return nil }
      columns.append(built)
    }
    guard let table = try? Table(names: names, columns: columns, rowCount: rows.count) else { return nil }
    self = table
  }

  static func column(ofJSON cells: [JSONValue]) -> Column? {
    var type: ColumnType?
    for cell in cells {
      let cellType: ColumnType
      switch cell {
      case .null: continue
      case .integer: cellType = .integer
      case .number(let x): cellType = Int64(exactly: x) != nil ? .integer : .number
      case .bool: cellType = .bool
      case .string: cellType = .string
      case .array, .object: return nil
      }
      switch (type, cellType) {
      case (nil, _): type = cellType
      case (.integer?, .number): type = .number
      case (.number?, .integer): break
      case (let known?, _) where known == cellType: break
      default: return nil
      }
    }
    var builder = ColumnBuilder(type ?? .string, capacity: cells.count)
    for cell in cells {
      switch cell {
      case .integer(let n):
        if builder.type == .integer { builder.append(integer: n) } else { builder.append(number: Double(n)) }
      case .number(let x):
        if builder.type == .integer { builder.append(integer: Int64(x)) } else { builder.append(number: x) }
      case .bool(let flag): builder.append(bool: flag)
      case .string(let text): builder.append(string: text)
      default: builder.appendNull()
      }
    }
    return builder.build()
  }
}
