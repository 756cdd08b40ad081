/// Every problem found in a document or a mutation, reported together.
///
/// A hostile document can hold millions of problems. Collectors keep the first
/// ``reportedIssueLimit`` issues and only count the rest (``unreportedCount``), so reporting
/// uses bounded memory however many problems there are.
public struct GraphValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// How many issues a validation keeps; later ones are counted in ``unreportedCount``.
  public static let reportedIssueLimit = 100

  /// The first problems found, in the order found.
  public var issues: [GraphIssue]
  /// How many more problems were found but not kept.
  public var unreportedCount: Int

  public init(issues: [GraphIssue], unreportedCount: Int = 0) {
    self.issues = issues
    self.unreportedCount = unreportedCount
  }

  public init(_ issue: GraphIssue) {
    self.issues = [issue]
    self.unreportedCount = 0
  }

  /// Every problem found: the kept issues and the counted ones.
  public var totalCount: Int { issues.count + unreportedCount }

  /// One issue per line, then `… and N more problems` when some were only counted.
  public var description: String {
    let lines =
      issues.map(\.message)
      + (unreportedCount > 0 ? ["… and \(unreportedCount) more problem\(unreportedCount == 1 ? "" : "s")"] : [])
    return lines.joined(separator: "\n")
  }

  /// Whether some kept issue has `code`.
  public func contains(_ code: GraphIssue.Code) -> Bool { issues.contains { $0.code == code } }
}
