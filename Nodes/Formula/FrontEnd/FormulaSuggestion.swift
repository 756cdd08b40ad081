import FlowGraph

/// Did-you-mean for misspelt names: the known names within a small edit distance.
///
/// The command line's `Suggestion` distance, ranked: every close name, not only the closest.
enum FormulaSuggestion {
  /// The names of `candidates` closest to `name` by edit distance (insertions, deletions,
  /// substitutions and adjacent transpositions), at most a third of the name's length and at
  /// most 2 edits, best first (ties in the candidates' order); then the names of 3 or more
  /// scalars that `name` starts with (`lenght` suggests `len`), or that start with `name`.
  ///
  /// - Complexity: O(*n* × *m*) per candidate for names of *n* and *m* scalars; names longer
  ///   than 64 scalars get no suggestion.
  static func closest<Names: Sequence<String>>(to name: String, among candidates: Names) -> [String] {
    let length = name.unicodeScalars.count
    guard length > 0, length <= 64 else { return [] }
    let limit = min(2, max(1, length / 3))
    var found: [(name: String, distance: Int)] = []
    for candidate in candidates where candidate != name {
      let distance = Suggestion.editDistance(name, candidate, limit: limit)
      if distance <= limit { found.append((candidate, distance)) }
    }
    // A stable sort by distance keeps the table's order among equals.
    let close = found.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
      .map(\.element.name)
    let prefixed = candidates.filter { candidate in
      candidate != name && !close.contains(candidate)
        && ((candidate.unicodeScalars.count >= 3 && name.hasPrefix(candidate))
          || (length >= 3 && candidate.hasPrefix(name)))
    }
    return close + prefixed
  }
}
