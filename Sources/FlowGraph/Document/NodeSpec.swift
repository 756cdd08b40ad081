/// The payload FlowRuntime stores in a SwiftFlow node's `data`: which kind, with which params.
///
/// ```json
/// { "kind": "add", "params": { "b": 2 }, "label": "optional display name" }
/// ```
/// Keys other than these three are kept in `extra` and written back unchanged.
public struct NodeSpec: Sendable, Hashable {
  public var kind: String
  public var params: JSONObject
  /// The rarely set fields; `nil` while they all have their defaults (see `EdgeDetailsBox`).
  private var details: SpecDetailsBox?

  public init(kind: String, params: JSONObject = JSONObject(), label: String? = nil, extra: JSONObject = JSONObject()) {
    self.kind = kind
    self.params = params
    details = .boxing(SpecDetails(label: label, extra: extra))
  }

  public var label: String? {
    get { details?.fields.label }
    set { if details != nil || newValue != nil { update { $0.label = newValue } } }
  }

  public var extra: JSONObject {
    get { details?.fields.extra ?? JSONObject() }
    set { if details != nil || !newValue.members.isEmpty { update { $0.extra = newValue } } }
  }

  private mutating func update(_ change: (inout SpecDetails) -> Void) {
    var fields = details?.fields ?? SpecDetails()
    change(&fields)
    details = .boxing(fields)
  }
}

extension NodeSpec {
  /// The kind of a container node (SwiftFlow's `acceptsChildren: true`): it frames its children,
  /// has no ports and is never evaluated. Every layer that treats containers apart (the
  /// drawing, SQL export, subgraph names, `flow calc`) names it through this constant.
  public static let groupKind = "group"
}
