import FlowGraph
import FlowRuntime

/// What a drawing shows of a validated graph: one box per node (title, kind, params, ports,
/// values, failure), the edges by port, and the groups; positions come from `+Placement`.
///
/// Every size is measured for a 12 px monospace font, so an SVG needs no text metrics.
package struct GraphPicture {
  /// One node's box.
  package struct Box {
    package var id: String
    package var title: String
    package var kind: String
    package var isGroup: Bool
    package var parent: Int?
    /// `name` or `name = value` (an unconnected input set by a param).
    package var inputs: [String]
    /// `name` or `name = value` (with `--values`).
    package var outputs: [String]
    package var params: [String]
    package var failure: String?
    /// `failure` wrapped into lines (`GraphPicture.wrap`), drawn at the box's foot.
    package var failureLines: [String] = []
    /// The preview of the node's first table output (`GraphPicture.tablePreview`), drawn under
    /// its ports.
    package var tableLines: [String] = []
    /// With `--values`: the node stands only behind lazy inputs no node needed (drawn dimmed).
    package var isNotNeeded = false
    package var width = 0.0
    package var height = 0.0
    package var x = 0.0
    package var y = 0.0

    /// Set for a box drawn at its document size: ports spread evenly down each side, as
    /// SwiftFlow draws handles, instead of one row each under the params.
    package var spreadsPorts = false
    /// An `input` or `output` node drawn inside an expanded instance (`expandInstances`).
    package var isPortMarker = false
    /// The params an edge may feed and none does yet, each with the index of its first line in
    /// `params`: each is drawn with a target handle at that line ("every param is also an
    /// input"), secondary to the ports.
    package var paramHandles: [ParamHandle] = []
    /// The inputs (by index) that are params an edge feeds: drawn `name (from edge)`.
    package var fedParams: Set<Int> = []

    /// The label drawn for input `index`: its text, marked when an edge feeds a param there.
    package func inputLabel(_ index: Int) -> String {
      fedParams.contains(index) ? inputs[index] + GraphPicture.fedMark : inputs[index]
    }

    /// Distance from the box's top to the middle of param line `line` (a param handle's centre).
    package func paramLineY(_ line: Int) -> Double {
      GraphPicture.headerHeight + (Double(line) + 0.5) * GraphPicture.lineHeight
    }

    /// Distance from the box's top to input `index`.
    package func inputY(_ index: Int) -> Double {
      spreadsPorts ? (2 * height * Double(index + 1) / Double(inputs.count + 1)).rounded() / 2 : portY(index)
    }

    /// Distance from the box's top to output `index`.
    package func outputY(_ index: Int) -> Double {
      spreadsPorts ? (2 * height * Double(index + 1) / Double(outputs.count + 1)).rounded() / 2 : portY(index)
    }

    /// Distance from the box's top to its `index`th port row.
    package func portY(_ index: Int) -> Double {
      GraphPicture.headerHeight + Double(params.count) * GraphPicture.lineHeight + (Double(index) + 0.5)
        * GraphPicture.rowHeight
    }
  }

  /// A param's target handle: the param an edge into it feeds, and its first line in `Box.params`.
  package struct ParamHandle: Sendable, Hashable {
    package var name: String
    package var line: Int

    package init(name: String, line: Int) {
      self.name = name
      self.line = line
    }
  }

  /// What follows the name of an input that is a param an edge feeds.
  package static let fedMark = " (from edge)"
  package static let charWidth = 7.2
  package static let headerHeight = 40.0
  package static let lineHeight = 16.0
  package static let rowHeight = 20.0
  package static let minimumWidth = 120.0
  package static let textLimit = 40

  package var boxes: [Box]
  /// Edges by node index and port index.
  package var edges: [ResolvedGraph.Edge]
  /// For each edge, the centres of the dummies it passes through (layered layout only).
  package var routes: [[(x: Double, y: Double)]]
  /// One point of an edge's drawn path; `curve`: the step into it is a curve with horizontal
  /// ends (control points halfway across), otherwise a straight line.
  package struct PathPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var curve: Bool

    package init(x: Double, y: Double, curve: Bool) {
      self.x = x
      self.y = y
      self.curve = curve
    }
  }
  /// For each edge, its drawn path from port to port (layered layout: `LayeredLayout`'s
  /// paths, which pass under no node); empty when the edge is drawn as one curve between its
  /// ports (document layout).
  package var paths: [[PathPoint]] = []
  package var width = 0.0
  package var height = 0.0
  /// Crossings and sweeps of the last layered placement.
  package var crossings = 0
  package var sweeps = 0
  /// Bands the last layered placement wrapped the layers into (1: one row).
  package var bands = 1
  /// The subgraph instances drawn with their inside (`expandInstances`), by box index.
  package var insides: [Int: Inside] = [:]

  /// The boxes of `graph`; `values` (if given) supplies each node's outputs and failure.
  /// - Parameter idPrefix: put before each node's id (`instance/` for a subgraph's inside):
  ///   the boxes' ids and the ids whose values are shown.
  package init(graph: ResolvedGraph, values: GraphEvaluator?, idPrefix: String = "") {
    let document = graph.document
    var indexByID: [String: Int] = [:]
    for (index, node) in document.nodes.enumerated() where indexByID[node.id] == nil { indexByID[node.id] = index }
    var connected = Set<Int64>()
    for edge in graph.edges { connected.insert(Int64(edge.target) << 32 | Int64(edge.targetPort)) }
    boxes = []
    boxes.reserveCapacity(document.nodes.count)
    for (index, node) in document.nodes.enumerated() {
      let signature = graph.signatures[index]
      let spec = node.data
      let portNames = Set(signature.inputs.map(\.name))
      var inputs: [String] = []
      for (port, input) in signature.inputs.enumerated() {
        let isConnected = connected.contains(Int64(index) << 32 | Int64(port))
        if !isConnected, let value = spec.params[input.name] {
          inputs.append(Self.clip("\(input.name) = \(value.serialized(options: []))"))
        } else {
          inputs.append(input.name)
        }
      }
      let outputValues = values?.outputs(of: idPrefix + node.id)
      let failure = values?.failure(of: idPrefix + node.id)
      let outputs = signature.outputs.map { port in
        guard failure == nil, let value = outputValues?[port.name] else { return port.name }
        return Self.clip("\(port.name) = \(Self.summary(of: value))")
      }
      // In the document's key order, each drawn whole (wrapped); a param an edge may feed
      // gets a handle at its first line.
      let feedable = Set(signature.parameterInputs.map(\.name))
      var params: [String] = [], handles: [ParamHandle] = []
      for member in spec.params.members where !portNames.contains(member.key) {
        if feedable.contains(member.key) { handles.append(ParamHandle(name: member.key, line: params.count)) }
        params += Self.wrap("\(member.key): \(member.value.serialized(options: []))")
      }
      let isGroup = signature.isContainer || spec.kind == NodeSpec.groupKind
      var box = Box(
        id: idPrefix + node.id, title: Self.clip(spec.label ?? node.id),
        kind: Self.clip(spec.label == nil ? spec.kind : "\(node.id) · \(spec.kind)"), isGroup: isGroup,
        parent: node.parentID.flatMap { indexByID[$0] }, inputs: inputs, outputs: outputs, params: params,
        failure: failure.map { "! " + $0 })
      box.paramHandles = handles
      box.fedParams = Set(signature.inputs.indices.filter { feedable.contains(signature.inputs[$0].name) })
      box.failureLines = box.failure.map { Self.wrap($0) } ?? []
      if failure == nil, let table = signature.outputs.lazy.compactMap({ outputValues?[$0.name]?.tableValue }).first {
        box.tableLines = Self.tablePreview(table)
      }
      box.isNotNeeded = values?.isNotNeeded(idPrefix + node.id) ?? false
      Self.measure(&box)
      boxes.append(box)
    }
    edges = graph.edges
    routes = []
  }

  /// A value in one line: its text form (strings unquoted), a table as its shape (without
  /// writing out every cell).
  package static func summary(of value: Value) -> String {
    if case .table(let table) = value { return "table (\(table.rowCount) rows × \(table.columnCount) columns)" }
    return value.text
  }

  /// Shortens `text` to `textLimit` characters with an ellipsis.
  package static func clip(_ text: String) -> String {
    text.count <= textLimit ? text : String(text.prefix(textLimit - 1)) + "…"
  }

  /// Sets the box's size from its text.
  package static func measure(_ box: inout Box) {
    var characters = max(box.title.count + 1, box.kind.count)
    for line in box.params { characters = max(characters, line.count) }
    for row in 0..<max(box.inputs.count, box.outputs.count) {
      let left = row < box.inputs.count ? box.inputLabel(row).count : 0
      let right = row < box.outputs.count ? box.outputs[row].count : 0
      characters = max(characters, left + right + 3)
    }
    for line in box.failureLines { characters = max(characters, line.count) }
    for line in box.tableLines { characters = max(characters, line.count) }
    box.width = (2 * max(minimumWidth, Double(characters) * charWidth + 24)).rounded(.up) / 2  // on the half-point grid
    box.height =
      headerHeight + Double(box.params.count) * lineHeight
      + Double(max(box.inputs.count, box.outputs.count)) * rowHeight
      + Double(box.tableLines.count + box.failureLines.count) * lineHeight + 8
  }
}
