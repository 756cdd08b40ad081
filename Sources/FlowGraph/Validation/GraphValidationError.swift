/// Every problem found in a document or a mutation, reported together.
public struct GraphValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var issues: [GraphIssue]

  public init(issues: [GraphIssue]) { self.issues = issues }

  public init(_ issue: GraphIssue) { self.issues = [issue] }

  /// One issue per line.
  public var description: String { issues.map(\.message).joined(separator: "\n") }

  /// Whether some issue has `code`.
  public func contains(_ code: GraphIssue.Code) -> Bool { issues.contains { $0.code == code } }
}
