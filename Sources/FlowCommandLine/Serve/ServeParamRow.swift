import FlowGraph
import FlowLayout
import FlowRuntime

/// How the page draws one shown param of a node (a param that is not an input), in the
/// document's order: an editable text param (a formula, a `text` node's string, a template) is
/// a multi-line field as tall as its lines; another editable param a one-line field; a param the
/// page cannot edit its text, wrapped whole as `flow render` draws it. The page's boxes are
/// measured with these lines (`ServeParamRow.fit`), so every field and text fits in its box.
///
/// Invariant: `lines` is never empty; a text field has at most `textFieldLineLimit` lines (it
/// scrolls beyond), any other row at most `GraphPicture.wrapLineLimit`.
struct ServeParamRow: Sendable, Hashable {
  /// The param's name.
  var name: String
  /// The field that edits it, nil when the page shows it as text.
  var field: ServeEditable.Field?
  /// The row's lines as they are measured: `name: ` and the value (a field's lines after the
  /// first are indented under its first).
  var lines: [String]

  /// The most lines a multi-line text field is drawn with (a longer text scrolls in it).
  static let textFieldLineLimit = 12

  /// Whether the row's field is a multi-line text field (a `textarea`).
  var isMultiLine: Bool { field.map { $0.type == .string && !$0.isInput } ?? false }

  /// The label drawn before a field.
  var label: String { name + ":" }

  /// The shown params of `node`: its params that are not inputs, each with its field from
  /// `fields` (by name) if it has one.
  ///
  /// - Complexity: O(characters of the params).
  static func rows(of node: FlowNode, inputNames: Set<String>, fields: [String: ServeEditable.Field]) -> [ServeParamRow]
  {
    node.data.params.members.filter { !inputNames.contains($0.key) }.map { member -> ServeParamRow in
      let field = fields[member.key]
      let prefix = member.key + ": "
      guard let field else {
        return ServeParamRow(
          name: member.key, field: nil, lines: GraphPicture.wrap(prefix + member.value.serialized(options: [])))
      }
      let text = ServeEditable.text(member.value)
      guard field.type == .string else {
        let shown = text.count <= GraphPicture.wrapWidth ? text : String(text.prefix(GraphPicture.wrapWidth))
        return ServeParamRow(name: member.key, field: field, lines: [prefix + shown])
      }
      return ServeParamRow(name: member.key, field: field, lines: textLines(text, prefix: prefix))
    }
  }

  /// A text field's lines: each line of `text` wrapped to fit beside `prefix` within
  /// `GraphPicture.wrapWidth` characters, at most `textFieldLineLimit` of them.
  static func textLines(_ text: String, prefix: String) -> [String] {
    let width = max(20, GraphPicture.wrapWidth - prefix.count)
    let pad = String(repeating: " ", count: prefix.count)
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      for piece in GraphPicture.wrap(String(line), width: width, indent: 0) {
        lines.append((lines.isEmpty ? prefix : pad) + piece)
        if lines.count == textFieldLineLimit { return lines }
      }
    }
    return lines.isEmpty ? [prefix] : lines
  }

  /// Measures each node's box of `picture` with the page's rows for its params instead of
  /// `flow render`'s lines, before the picture is placed.
  ///
  /// - Complexity: O(characters of the params).
  static func fit(_ picture: inout GraphPicture, graph: ResolvedGraph, registry: NodeKindRegistry) {
    var connected = Set<Int64>()
    for edge in graph.edges { connected.insert(Int64(edge.target) << 32 | Int64(edge.targetPort)) }
    for index in picture.boxes.indices where index < graph.document.nodes.count && !picture.boxes[index].isGroup {
      let fields = ServeEditable.fields(of: index, in: graph, connected: connected, registry: registry)
      let names = Set(graph.signatures[index].inputs.map(\.name))
      let feedable = Set(graph.signatures[index].parameterInputs.map(\.name))
      var lines: [String] = [], handles: [GraphPicture.ParamHandle] = []
      for row in rows(of: graph.document.nodes[index], inputNames: names, fields: fields.params) {
        if feedable.contains(row.name) { handles.append(GraphPicture.ParamHandle(name: row.name, line: lines.count)) }
        lines += row.lines
      }
      picture.boxes[index].params = lines
      picture.boxes[index].paramHandles = handles
      GraphPicture.measure(&picture.boxes[index])
    }
  }
}
