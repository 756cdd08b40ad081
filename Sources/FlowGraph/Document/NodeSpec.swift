/// The payload FlowRuntime stores in a SwiftFlow node's `data`: which kind, with which params.
///
/// ```json
/// { "kind": "add", "params": { "b": 2 }, "label": "optional display name" }
/// ```
/// Keys other than these three are kept in `extra` and written back unchanged.
public struct NodeSpec: Sendable, Hashable {
  public var kind: String
  public var params: JSONObject
  public var label: String?
  public var extra: JSONObject

  public init(kind: String, params: JSONObject = JSONObject(), label: String? = nil, extra: JSONObject = JSONObject()) {
    self.kind = kind
    self.params = params
    self.label = label
    self.extra = extra
  }
}
