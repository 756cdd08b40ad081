/// SQL text built without copying: each expression is a node whose parts are text or earlier
/// nodes, rendered once at the end by an explicit stack (no recursion, so a formula nested
/// 100,000 deep costs memory, not machine stack). Building is O(parts); rendering is O(output).
///
/// A translation may use an argument twice (`CASE WHEN a IS NULL …`), so the output can be
/// larger than the formula; ``length`` tracks each node's rendered size and the translator
/// refuses past ``limit``, so nesting never blows up the script.
struct SQLRope {
  enum Part {
    case text(String)
    case node(Int)
  }

  /// The largest rendered expression accepted (16 MiB).
  static let limit = 16 << 20

  private(set) var parts: [[Part]] = []
  private(set) var length: [Int] = []

  /// A node of these parts.
  mutating func make(_ newParts: [Part]) -> Int {
    var size = 0
    for part in newParts {
      switch part {
      case .text(let text): size += text.utf8.count
      case .node(let index): size += length[index]
      }
    }
    parts.append(newParts)
    length.append(size)
    return parts.count - 1
  }

  /// A node of one text.
  mutating func text(_ text: String) -> Int { make([.text(text)]) }

  /// Appends node `root`'s text to `output`.
  func render(_ root: Int, into output: inout String) {
    var stack: [(node: Int, next: Int)] = [(root, 0)]
    while let top = stack.last {
      let nodeParts = parts[top.node]
      if top.next == nodeParts.count {
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      switch nodeParts[top.next] {
      case .text(let text): output += text
      case .node(let child): stack.append((child, 0))
      }
    }
  }

  /// Node `root`'s text.
  func string(_ root: Int) -> String {
    var output = ""
    output.reserveCapacity(length[root])
    render(root, into: &output)
    return output
  }
}
