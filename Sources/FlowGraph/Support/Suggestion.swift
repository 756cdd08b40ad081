/// "Did you mean …?" for a misspelt command, option, kind, node id or function name (the CLI and
/// the formula languages share it).
package enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely
  /// typo (at most a third of the word's length, and at least one edit, is allowed).
  ///
  /// - Complexity: O(*c* · |word| · |candidate|) for *c* candidates; words are short.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    let limit = max(1, word.count / 3)
    var best: (distance: Int, candidate: String)?
    for candidate in candidates where candidate != word {
      let distance = editDistance(word.lowercased(), candidate.lowercased(), limit: limit)
      if distance <= limit, best == nil || distance < best!.distance { best = (distance, candidate) }
    }
    return best?.candidate
  }

  /// ` (did you mean 'x'?)`, or the empty string.
  package static func hint(for word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Levenshtein distance with adjacent transpositions (optimal string alignment), two rows;
  /// gives up early (returning `limit + 1`) when the lengths alone differ by more than `limit`.
  package static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
        current[j] = value
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
