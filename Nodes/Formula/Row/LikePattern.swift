/// A SQL `LIKE` pattern compiled for matching UTF-8 bytes: `%` matches any run of characters
/// (none included), `_` exactly one Unicode scalar, `\%` `\_` `\\` (a backslash before any
/// character) that character literally; everything else matches itself, case-sensitively. A
/// backslash that ends the pattern matches a backslash.
///
/// Matching is the greedy two-pointer algorithm with one backtrack point (the last `%` seen),
/// never recursive backtracking: O(*n* × *m*) in the worst case for a text of *n* bytes and a
/// pattern of *m* tokens, and O(*n* + *m*) for the usual patterns (`N7%`, `%JB`, `%a%b%`).
///
/// A pattern without `_` (most: `%special%requests%`, `N7%`) matches by its ``Literals``
/// instead: a vectorized search for each literal between `%`s, O(*n*) for a text of *n* bytes.
///
/// Invariant: ``tokens`` holds no two `.many` in a row (they match what one does); `literals`
/// is `Literals(tokens)`.
struct LikePattern: Sendable, Hashable {
  /// One token of a pattern.
  enum Token: Sendable, Hashable {
    /// A byte that must be there (the bytes of a literal scalar, in order).
    case byte(UInt8)
    /// `_`: one Unicode scalar.
    case one
    /// `%`: any run of scalars.
    case many
  }

  let tokens: [Token]
  /// The pattern as literals between `%`s, or `nil` if it holds a `_`.
  let literals: Literals?

  /// Compiles the pattern's UTF-8 bytes.
  init<Bytes: Collection<UInt8>>(_ pattern: Bytes) {
    var tokens: [Token] = []
    tokens.reserveCapacity(pattern.count)
    var escaped = false
    for byte in pattern {
      if escaped {
        tokens.append(.byte(byte))
        escaped = false
        continue
      }
      switch byte {
      case UInt8(ascii: "\\"): escaped = true
      case UInt8(ascii: "%"): if tokens.last != .many { tokens.append(.many) }
      case UInt8(ascii: "_"): tokens.append(.one)
      default: tokens.append(.byte(byte))
      }
    }
    if escaped { tokens.append(.byte(UInt8(ascii: "\\"))) }
    self.tokens = tokens
    literals = Literals(tokens)
  }

  /// Whether `bytes[start..<end]` (valid UTF-8) matches the whole pattern.
  ///
  /// A literal byte can only match where a scalar of the text starts when the pattern's
  /// literal starts one, so byte comparison is scalar comparison; `_` and a backtrack step
  /// move by whole scalars.
  ///
  /// - Complexity: O((`end - start`) × tokens) at worst, without allocating.
  func matches(_ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
    if let literals { return literals.matches(bytes, from: start, to: end) }
    return matchesByTokens(bytes, from: start, to: end)
  }

  /// ``matches(_:from:to:)`` by the two-pointer walk over ``tokens`` (any pattern; the only
  /// way for one with `_`).
  ///
  /// - Complexity: O((`end - start`) × tokens) at worst, without allocating.
  func matchesByTokens(_ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
    var text = start, token = 0
    // The last `%` seen: the token after it, and the text position it currently swallows to.
    var starToken = -1, starText = start
    while text < end {
      if token < tokens.count {
        switch tokens[token] {
        case .byte(let byte) where bytes[text] == byte:
          text += 1
          token += 1
          continue
        case .one:
          text = Self.nextScalar(bytes, after: text, end: end)
          token += 1
          continue
        case .many:
          token += 1
          starToken = token
          starText = text
          continue
        case .byte:
          break
        }
      }
      // A mismatch: let the last `%` swallow one more scalar, or fail without one.
      guard starToken >= 0 else { return false }
      starText = Self.nextScalar(bytes, after: starText, end: end)
      text = starText
      token = starToken
    }
    while token < tokens.count, tokens[token] == .many { token += 1 }
    return token == tokens.count
  }

  /// The position after the scalar that starts at `index`.
  @inline(__always)
  private static func nextScalar(_ bytes: [UInt8], after index: Int, end: Int) -> Int {
    var next = index + 1
    while next < end, bytes[next] & 0xC0 == 0x80 { next += 1 }
    return next
  }
}
