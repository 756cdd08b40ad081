// Compact descriptions: a JSON value prints as its JSON text on one line, object members in
// their order (`print(spec.params)` shows `{"value":2,"label":"x"}`, not the enum's cases).

extension JSONValue: CustomStringConvertible {
  /// The value's JSON text, compact (no spaces or line breaks), members in order.
  public var description: String { serialized(options: []) }
}

extension JSONObject: CustomStringConvertible {
  /// The object's JSON text, compact (no spaces or line breaks), members in order.
  public var description: String { JSONValue.object(self).serialized(options: []) }
}
