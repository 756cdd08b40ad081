/// What a document object held beyond the fields FlowRuntime reads into its own types: the
/// members it does not know (kept, in document order) and the order its keys were written in.
///
/// Writing keeps meaning: a document written again keeps every key it did not know and every
/// object's keys in the order they were read, so load → save → load gives the same graph, byte
/// for byte where nothing was edited. Objects FlowRuntime makes itself (a node added by an
/// editor) have no shape and are written with their keys sorted, as SwiftFlow writes them.
///
/// Nodes, edges and their `data` keep their unknown keys but are written with sorted keys, as
/// SwiftFlow writes them (their order carries no meaning, and the document scanner reads them
/// in any order without recording it); the few other structural objects (the top level,
/// `flowRuntime`, `viewport`, handles, definitions) keep their order too. Every object inside
/// a value — params, unknown keys, live state — is a `JSONObject` and keeps its order as is.
///
/// Invariant: a shape exists only when it tells something — `unknown` is not empty or `order`
/// is set; `order`, when set, is the read order of every key of the object, known or not, and
/// differs from the sorted order. Objects written by FlowRuntime itself therefore read back
/// without a shape (no memory for the common case).
public struct ObjectShape: Sendable, Hashable {
  /// Members whose keys the reader does not know, in document order.
  public var unknown: JSONObject
  /// Every key of the object in the order read, when it is not sorted.
  public var order: [String]?

  public init(unknown: JSONObject = JSONObject(), order: [String]? = nil) {
    self.unknown = unknown
    self.order = order
  }

  /// The shape of `object` whose known keys `isKnown` tells, or `nil` when its keys are sorted
  /// and all known.
  public static func of(_ object: JSONObject, keepingOrder: Bool = true, isKnown: (String) -> Bool) -> ObjectShape? {
    var unknown: [JSONMember] = []
    var sorted = true
    var previous: String?
    for member in object.members {
      if !isKnown(member.key) { unknown.append(member) }
      if let previous, !(previous < member.key) { sorted = false }
      previous = member.key
    }
    let keepsOrder = keepingOrder && !sorted
    guard !unknown.isEmpty || keepsOrder else { return nil }
    return ObjectShape(unknown: JSONObject(unknown), order: keepsOrder ? object.keys : nil)
  }

  /// Equal when the unknown members are: key order is how a document was written, not what it
  /// means (a document read from its own output, whose order gained the keys the writer adds,
  /// is the same document).
  public static func == (lhs: ObjectShape, rhs: ObjectShape) -> Bool { lhs.unknown == rhs.unknown }

  public func hash(into hasher: inout Hasher) { hasher.combine(unknown) }

  /// The object made of `known` members and, with a shape, its unknown members, ordered as read
  /// (keys the reading did not see come after, sorted); without a shape, every key sorted.
  public static func object(_ known: [JSONMember], shape: ObjectShape?) -> JSONObject {
    guard let shape else { return JSONObject(known.sorted { $0.key < $1.key }) }
    let all = known + shape.unknown.members
    guard let order = shape.order else { return JSONObject(all.sorted { $0.key < $1.key }) }
    var rank: [String: Int] = [:]
    rank.reserveCapacity(order.count)
    for (position, key) in order.enumerated() where rank[key] == nil { rank[key] = position }
    // Stable: duplicate unknown keys keep their relative order (the last still wins).
    let ranked = all.enumerated().sorted { lhs, rhs in
      let left = rank[lhs.element.key] ?? Int.max, right = rank[rhs.element.key] ?? Int.max
      if left != right { return left < right }
      if lhs.element.key != rhs.element.key { return lhs.element.key < rhs.element.key }
      return lhs.offset < rhs.offset
    }
    return JSONObject(ranked.map(\.element))
  }
}
