import FlowTestSupport
@testable import FlowRuntime

/// Random tables for the `union`, `distinct` and `join` property tests: few distinct values
/// (so keys repeat), about one null in five, and a column's type chosen per table, so integer
/// and number columns meet (and, where asked, a string column meets an integer one).
enum CombineTables {
  /// A random column of `type` with `count` cells.
  static func column(_ type: ColumnType, count: Int, _ random: inout SeededRandom) -> Column {
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : make() }
    switch type {
    case .integer: return .integers((0..<count).map { _ in maybe { Int64.random(in: 0..<4, using: &random) } })
    case .number:
      return .numbers((0..<count).map { _ in maybe { [0, -0.0, 0.5, 1, 2, 2.5].randomElement(using: &random)! } })
    case .bool: return .bools((0..<count).map { _ in maybe { Bool.random(using: &random) } })
    case .string:
      return .strings((0..<count).map { _ in maybe { ["a", "B", "é", "ab", ""].randomElement(using: &random)! } })
    }
  }

  /// A table with columns `schema`, in that order, and `rows` rows (random, up to 30, if `nil`).
  static func table(_ schema: [(String, ColumnType)], rows: Int? = nil, _ random: inout SeededRandom) throws -> Table {
    let count = rows ?? Int.random(in: 0...30, using: &random)
    return try Table(schema.map { (name: $0.0, column: column($0.1, count: count, &random)) })
  }

  /// The type a column of `name` gets in one table: usually its own, sometimes the other
  /// numeric type, and (if `clashes`) rarely a string.
  static func type(of name: String, clashes: Bool, _ random: inout SeededRandom) -> ColumnType {
    let roll = Int.random(in: 0..<12, using: &random)
    if clashes && roll == 0 && name != "s" { return .string }
    switch name {
    case "k": return roll < 4 ? .number : .integer
    case "x": return roll < 3 ? .integer : .number
    case "b": return .bool
    default: return .string
    }
  }

  /// Whether two key cells match in a join: both non-null and equal (numbers numerically).
  static func joinEqual(_ a: Value, _ b: Value) -> Bool {
    if a.isNull || b.isNull { return false }
    if let x = a.numberValue, let y = b.numberValue { return x == y }
    return a == b
  }

  /// `value` as the cell of a column of `type`: an integer in a `number` column is a number.
  static func converted(_ value: Value, to type: ColumnType) -> Value {
    if type == .number, case .integer(let n) = value { return .number(Double(n)) }
    return value
  }
}
