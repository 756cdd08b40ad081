/// One problem with a graph or a mutation, naming what it concerns.
///
/// Codes form an open set (a struct with static constants), so new rules do not break clients
/// that switch over the codes they know.
public struct GraphIssue: Error, Hashable, Sendable, CustomStringConvertible {
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The JSON is well formed but not a document (a missing key, a value of the wrong type).
    public static let malformedDocument = Code(rawValue: "malformedDocument")
    public static let unsupportedFormatVersion = Code(rawValue: "unsupportedFormatVersion")
    public static let duplicateNodeID = Code(rawValue: "duplicateNodeID")
    public static let duplicateEdgeID = Code(rawValue: "duplicateEdgeID")
    public static let missingNode = Code(rawValue: "missingNode")
    public static let unknownHandle = Code(rawValue: "unknownHandle")
    public static let wrongDirection = Code(rawValue: "wrongDirection")
    public static let inputAlreadyConnected = Code(rawValue: "inputAlreadyConnected")
    public static let ambiguousHandle = Code(rawValue: "ambiguousHandle")
    public static let unknownKind = Code(rawValue: "unknownKind")
    public static let invalidParameter = Code(rawValue: "invalidParameter")
    public static let handlesDisagreeWithKind = Code(rawValue: "handlesDisagreeWithKind")
    public static let typeMismatch = Code(rawValue: "typeMismatch")
    public static let cycle = Code(rawValue: "cycle")
    /// A store mutation names a node id the store does not hold (remove or update).
    public static let unknownNode = Code(rawValue: "unknownNode")
    /// A store mutation names an edge id the store does not hold (remove or update).
    public static let unknownEdge = Code(rawValue: "unknownEdge")
  }

  public var code: Code
  /// A full sentence naming the node(s), edge, handle and param concerned.
  public var message: String
  /// The nodes concerned; for a cycle, the cycle's nodes in edge order.
  public var nodeIDs: [String]
  public var edgeID: String?
  public var handleID: String?
  public var parameter: String?

  public init(
    _ code: Code, _ message: String, nodeIDs: [String] = [], edgeID: String? = nil,
    handleID: String? = nil, parameter: String? = nil
  ) {
    self.code = code
    self.message = message
    self.nodeIDs = nodeIDs
    self.edgeID = edgeID
    self.handleID = handleID
    self.parameter = parameter
  }

  public var description: String { message }
}
