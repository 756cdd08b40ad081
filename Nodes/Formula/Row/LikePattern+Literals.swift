/// The fast form of a pattern without `_`: its literals between `%`s, each found with
/// ``ByteSearch`` (a vectorized scan) instead of token by token.
extension LikePattern {
  /// A pattern with no `_` as literals: `prefix%middle₁%…%middleₖ%suffix` (`prefix` alone
  /// when the pattern has no `%`).
  ///
  /// Invariant: no middle literal is empty (a pattern never holds two `%` in a row). Each
  /// literal is the bytes of whole scalars, so it starts with a byte that starts a scalar: a
  /// match in valid UTF-8 text starts where a scalar of the text does, and byte search is
  /// scalar search.
  struct Literals: Sendable, Hashable {
    /// The bytes before the first `%` (the whole pattern when `hasMany` is false).
    var prefix: [UInt8] = []
    /// The literals between two `%`, in order.
    var middle: [[UInt8]] = []
    /// The bytes after the last `%`.
    var suffix: [UInt8] = []
    /// Whether the pattern holds a `%`.
    var hasMany = false

    /// The literals of `tokens`, or `nil` if they hold a `_`.
    init?(_ tokens: [Token]) {
      var literals: [[UInt8]] = [[]]
      for token in tokens {
        switch token {
        case .one: return nil
        case .many: literals.append([])
        case .byte(let byte): literals[literals.count - 1].append(byte)
        }
      }
      prefix = literals[0]
      hasMany = literals.count > 1
      if hasMany {
        suffix = literals[literals.count - 1]
        middle = Array(literals[1..<(literals.count - 1)])
      }
    }

    /// Whether `bytes[start..<end]` matches: the prefix at the start, the suffix at the end,
    /// and each middle literal at its leftmost place after the one before (leftmost is enough:
    /// a later place only leaves less text for the literals after it).
    ///
    /// - Complexity: O(`end - start` + bytes of the literals).
    func matches(_ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
      guard hasMany else { return end - start == prefix.count && Self.equal(prefix, bytes, at: start) }
      guard end - start >= prefix.count + suffix.count, Self.equal(prefix, bytes, at: start),
        Self.equal(suffix, bytes, at: end - suffix.count)
      else { return false }
      var from = start + prefix.count
      let limit = end - suffix.count
      for literal in middle {
        guard let found = ByteSearch.firstIndex(of: literal, in: bytes, from: from, to: limit) else { return false }
        from = found + literal.count
      }
      return true
    }

    /// Whether `bytes[at..<at + literal.count]` is `literal`.
    ///
    /// - Precondition: the range lies within `bytes`.
    @inline(__always)
    private static func equal(_ literal: [UInt8], _ bytes: [UInt8], at start: Int) -> Bool {
      var index = 0
      while index < literal.count {
        if bytes[start + index] != literal[index] { return false }
        index += 1
      }
      return true
    }
  }
}
