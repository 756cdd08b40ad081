import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Reference.md, "Files and limits", at validation: a clock faster than 1 ms, a `format` template of more than
/// 10,000 placeholders and an integer param out of range are validation errors naming the node
/// and the param.
@Suite struct LimitValidationTests {
  /// The one validation issue of `node`, as `(node ids, param, message)`.
  static func issue(_ node: FlowNode) -> GraphIssue? {
    do {
      _ = try GraphEvaluator(validating: FlowDocument(nodes: [node]), registry: .standard)
      return nil
    } catch {
      return error.issues.first
    }
  }

  @Test(arguments: [1e-300, 0.0009, 0, -1])
  func aClockFasterThanAMillisecondIsAValidationError(interval: Double) throws {
    let issue = try #require(Self.issue(.node("c", "clock", params: ["interval": .number(interval)])))
    #expect(issue.code == .invalidParameter && issue.nodeIDs == ["c"] && issue.parameter == "interval")
    #expect(issue.message.contains("must be a number of seconds from 0.001 to 1e9"), "\(issue.message)")
  }

  @Test func aClockOfExactlyAMillisecondIsAccepted() {
    #expect(Self.issue(.node("c", "clock", params: ["interval": .number(0.001)])) == nil)
  }

  @Test func aWatchedFileCheckedFasterThanAMillisecondIsAValidationError() throws {
    let node = FlowNode.node(
      "r", "readText", params: ["path": .string("a.txt"), "watch": .bool(true), "interval": .number(1e-300)])
    let issue = try #require(Self.issue(node))
    #expect(issue.parameter == "interval")
  }

  @Test func aTemplateOfMoreThanTenThousandPlaceholdersIsAValidationError() throws {
    let template = (0...10_000).map { "{p\($0)}" }.joined()
    let issue = try #require(Self.issue(.node("f", "format", params: ["template": .string(template)])))
    #expect(issue.code == .invalidParameter && issue.nodeIDs == ["f"] && issue.parameter == "template")
    #expect(issue.message.contains("has more than 10000 placeholders"), "\(issue.message)")
  }

  @Test func repeatsCountTowardThePlaceholderLimit() throws {
    let template = String(repeating: "{x}", count: 10_001)
    #expect(Self.issue(.node("f", "format", params: ["template": .string(template)]))?.parameter == "template")
  }

  @Test func aTemplateOfTenThousandPlaceholdersIsAccepted() throws {
    let template = (0..<10_000).map { "{p\($0)}" }.joined(separator: ",")
    let (pieces, names) = try FormatNode.parse(template)
    #expect(names.count == 10_000)
    #expect(names[9_999] == "p9999")
    #expect(pieces.count == 19_999)
    #expect(Self.issue(.node("f", "format", params: ["template": .string(template)])) == nil)
  }

  @Test(arguments: [("count", -1), ("offset", -5)])
  func aNegativeLimitParamIsAValidationErrorNamingIt(param: String, value: Int) throws {
    var params: JSONObject = ["count": .number(1)]
    params[param] = .number(Double(value))
    let issue = try #require(Self.issue(.node("l", "limit", params: params)))
    #expect(issue.code == .invalidParameter && issue.parameter == param)
    #expect(issue.message.contains("must not be negative"), "\(issue.message)")
  }

  @Test(arguments: [1e300, 1.5])
  func anIntegerParamThatFitsNoIntegerIsAValidationError(value: Double) throws {
    let issue = try #require(Self.issue(.node("l", "limit", params: ["count": .number(value)])))
    #expect(issue.parameter == "count")
  }

  @Test func aNegativeClockLimitIsAValidationError() throws {
    let issue = try #require(Self.issue(.node("c", "clock", params: ["limit": .number(-1)])))
    #expect(issue.parameter == "limit")
  }
}
