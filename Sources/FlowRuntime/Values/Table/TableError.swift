/// A table operation that cannot be done (columns of different lengths, a duplicate or missing
/// column name, a value that does not fit a column).
public struct TableError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
