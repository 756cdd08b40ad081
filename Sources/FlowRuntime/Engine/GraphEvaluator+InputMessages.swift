extension GraphEvaluator {
  /// `message` in the user's terms: an input named by number (`input #1 is null, expected
  /// table`, as `NodeInputs` reports a value of the wrong type, not knowing its port names)
  /// is named by its port, and an unconnected input without a value is said to be not connected
  /// (`input 'table' is not connected (it needs a table)`). Other messages are unchanged.
  func describingInputs(_ message: String, of node: Int32) -> String {
    guard message.hasPrefix(NodeError.wrongInputPrefix) else { return message }
    let rest = message.dropFirst(NodeError.wrongInputPrefix.count)
    guard let space = rest.firstIndex(of: " "), let number = Int(rest[..<space]), number >= 1 else { return message }
    let names = graph.configuration(of: node).inputNames
    guard number <= names.count else { return message }
    let detail = rest[space...]
    let name = names[number - 1]
    if detail.hasPrefix(" is null, expected "), graph.sourceNode(of: node, input: Int32(number - 1)) < 0 {
      let expected = detail.dropFirst(" is null, expected ".count)
      let article = expected.first.map { "aeiou".contains($0) } == true ? "an" : "a"
      return "input '\(name)' is not connected (it needs \(article) \(expected))"
    }
    return "input '\(name)'\(detail)"
  }
}
