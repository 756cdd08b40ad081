/// Which node slots still hold an inner node exactly as a bulk definition edit
/// (`StoreStep.replaceInlined`) wrote it, so that the next edit of the same definition can tell
/// that an instance's inner node is its template's, stamped into it, from one integer per node
/// instead of reading and comparing the node.
///
/// A **token** names a template node (`FlowNode`, ids relative to the instance) at an offset in
/// a template of a given node count. `tokens[slot] == t`, with `t` registered, claims:
/// the node at `slot` is `t`'s node stamped into the instance whose instance node is at
/// `slot + count - 1 - offset` (`FlowNode.isStamped(from:in:)` holds for it).
///
/// Invariants (`StoreState._checkInvariants()` checks the claim for every registered token):
/// - Only `replaceInlined` sets a token, and only for the slots it writes, each of which held
///   the node its `before` template stamped (checked in full, or by this claim) in the same
///   layout, so the claim holds for the node it writes.
/// - Every other write to a slot (insert, delete, replace) resets its token to 0 ("unknown"),
///   and compaction, which moves slots, resets them all; a step renumbered by compaction sets
///   no token.
/// - A node slot's id never changes while it is live, and a tombstone is revived only with the
///   node it held (undo), so the instance slot a claim names keeps its id.
/// - Tokens are never handed out twice; an entry dropped from the registry only makes its
///   slots' claims unusable (a lookup registers the node again under a new token).
///
/// `tokens` may be shorter than the store's slots: a missing entry is 0.
struct StoreStamps: Sendable {
  /// A registered template node: where it sits in its template, and its token.
  struct Entry: Sendable {
    var node: FlowNode
    var offset: Int32
    var count: Int32
    var token: UInt64
  }

  /// How many template nodes are remembered; beyond it the oldest half is forgotten.
  static let registryLimit = 256

  private(set) var tokens: [UInt64] = []
  private(set) var registry: [Entry] = []
  private var nextToken: UInt64 = 1

  /// The token at `slot` (0: unknown).
  func token(at slot: Int) -> UInt64 { slot >= 0 && slot < tokens.count ? tokens[slot] : 0 }

  /// Forgets what `slot` holds (any write other than `replaceInlined`).
  mutating func reset(_ slot: Int) {
    if slot >= 0 && slot < tokens.count && tokens[slot] != 0 { tokens[slot] = 0 }
  }

  /// Forgets every slot (compaction moves them).
  mutating func resetAll() { tokens = [] }

  /// Sets the token of `slot` (growing the column with zeros as needed).
  mutating func set(_ slot: Int, to token: UInt64) {
    guard slot >= 0 else { return }
    if slot >= tokens.count {
      guard token != 0 else { return }
      tokens.append(contentsOf: repeatElement(0, count: slot + 1 - tokens.count))
    }
    tokens[slot] = token
  }

  /// Makes room for `slot` (so that a run of `set`s does not grow the column one by one).
  mutating func reserve(through slot: Int) {
    if slot >= tokens.count { tokens.append(contentsOf: repeatElement(0, count: slot + 1 - tokens.count)) }
  }

  /// The token of template node `node` at `offset` of a template of `count` nodes, registered
  /// if it is new.
  ///
  /// - Complexity: O(`registryLimit`) node comparisons, once per template node of an edit.
  mutating func token(for node: FlowNode, offset: Int, count: Int) -> UInt64 {
    if let entry = registry.last(where: { $0.offset == Int32(offset) && $0.count == Int32(count) && $0.node == node }) {
      return entry.token
    }
    if registry.count >= Self.registryLimit { registry.removeFirst(registry.count / 2) }
    let token = nextToken
    nextToken += 1
    registry.append(Entry(node: node, offset: Int32(offset), count: Int32(count), token: token))
    return token
  }

  /// The registered entry of `token`, if it is still registered.
  func entry(_ token: UInt64) -> Entry? {
    guard token != 0 else { return nil }
    return registry.last { $0.token == token }
  }
}
