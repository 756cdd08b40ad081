/// An edge as a SwiftFlow document stores it: from a source handle to a target handle.
public struct FlowEdge: Sendable, Hashable, Identifiable {
  public enum PathType: String, Sendable, Hashable { case bezier, straight, smoothStep, simpleBezier }

  public var id: String
  public var sourceNodeID: String
  public var sourceHandleID: String?
  public var targetNodeID: String
  public var targetHandleID: String?
  /// The rarely set fields; `nil` while they all have their defaults (see `EdgeDetailsBox`).
  private var details: EdgeDetailsBox?

  public init(
    id: String, sourceNodeID: String, sourceHandleID: String? = nil,
    targetNodeID: String, targetHandleID: String? = nil, parentID: String? = nil,
    label: String? = nil, pathType: PathType = .bezier, isSelected: Bool = false
  ) {
    self.id = id
    self.sourceNodeID = sourceNodeID
    self.sourceHandleID = sourceHandleID
    self.targetNodeID = targetNodeID
    self.targetHandleID = targetHandleID
    details = .boxing(EdgeDetails(parentID: parentID, label: label, pathType: pathType, isSelected: isSelected))
  }

  /// An edge whose rarely set fields all have their defaults (no box to make or compare), as
  /// the document scanner reads most edges.
  init(
    defaultDetailsID id: String, sourceNodeID: String, sourceHandleID: String?, targetNodeID: String,
    targetHandleID: String?
  ) {
    self.id = id
    self.sourceNodeID = sourceNodeID
    self.sourceHandleID = sourceHandleID
    self.targetNodeID = targetNodeID
    self.targetHandleID = targetHandleID
    details = nil
  }

  public var parentID: String? {
    get { details?.fields.parentID }
    set { if details != nil || newValue != nil { update { $0.parentID = newValue } } }
  }

  public var label: String? {
    get { details?.fields.label }
    set { if details != nil || newValue != nil { update { $0.label = newValue } } }
  }

  public var pathType: PathType {
    get { details?.fields.pathType ?? .bezier }
    set { if details != nil || newValue != .bezier { update { $0.pathType = newValue } } }
  }

  public var isSelected: Bool {
    get { details?.fields.isSelected ?? false }
    set { if details != nil || newValue { update { $0.isSelected = newValue } } }
  }

  /// The keys the document gave this edge beyond its fields, and their order (see `ObjectShape`).
  public var shape: ObjectShape? {
    get { details?.fields.shape }
    set { if details != nil || newValue != nil { update { $0.shape = newValue } } }
  }

  private mutating func update(_ change: (inout EdgeDetails) -> Void) {
    var fields = details?.fields ?? EdgeDetails()
    change(&fields)
    details = .boxing(fields)
  }

  /// `source.port → target.port`, for messages.
  public var endpointsDescription: String {
    "\(sourceNodeID).\(sourceHandleID ?? "*") → \(targetNodeID).\(targetHandleID ?? "*")"
  }
}
