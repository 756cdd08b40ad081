/// An edge as a SwiftFlow document stores it: from a source handle to a target handle.
public struct FlowEdge: Sendable, Hashable, Identifiable {
  public enum PathType: String, Sendable, Hashable { case bezier, straight, smoothStep, simpleBezier }

  public var id: String
  public var sourceNodeID: String
  public var sourceHandleID: String?
  public var targetNodeID: String
  public var targetHandleID: String?
  public var parentID: String?
  public var label: String?
  public var pathType: PathType
  public var isSelected: Bool

  public init(id: String, sourceNodeID: String, sourceHandleID: String? = nil,
              targetNodeID: String, targetHandleID: String? = nil, parentID: String? = nil,
              label: String? = nil, pathType: PathType = .bezier, isSelected: Bool = false) {
    self.id = id
    self.sourceNodeID = sourceNodeID
    self.sourceHandleID = sourceHandleID
    self.targetNodeID = targetNodeID
    self.targetHandleID = targetHandleID
    self.parentID = parentID
    self.label = label
    self.pathType = pathType
    self.isSelected = isSelected
  }

  /// `source.port → target.port`, for messages.
  public var endpointsDescription: String {
    "\(sourceNodeID).\(sourceHandleID ?? "*") → \(targetNodeID).\(targetHandleID ?? "*")"
  }
}
