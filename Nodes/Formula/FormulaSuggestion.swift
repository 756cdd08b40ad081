/// Did-you-mean for misspelt names: the known names within a small edit distance.
///
/// FlowNodes cannot use the command line's `Suggestion`; this is the same idea, on Unicode
/// scalars, for the formula languages' function names.
enum FormulaSuggestion {
  /// The names of `candidates` closest to `name` by edit distance (insertions, deletions,
  /// substitutions and adjacent transpositions), at most a third of the name's length and at
  /// most 2 edits, best first (ties in the candidates' order).
  ///
  /// - Complexity: O(*n* × *m*) per candidate for names of *n* and *m* scalars; names longer
  ///   than 64 scalars get no suggestion.
  static func closest<Names: Sequence<String>>(to name: String, among candidates: Names) -> [String] {
    let target = Array(name.unicodeScalars)
    guard !target.isEmpty, target.count <= 64 else { return [] }
    let limit = min(2, max(1, target.count / 3))
    var found: [(name: String, distance: Int)] = []
    for candidate in candidates where candidate != name {
      let scalars = Array(candidate.unicodeScalars)
      guard abs(scalars.count - target.count) <= limit else { continue }
      let distance = editDistance(target, scalars)
      if distance <= limit { found.append((candidate, distance)) }
    }
    // A stable sort by distance keeps the table's order among equals.
    return found.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
      .map(\.element.name)
  }

  /// The optimal-string-alignment distance between two scalar arrays.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          best = min(best, before[j - 2] + 1)
        }
        current[j] = best
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
