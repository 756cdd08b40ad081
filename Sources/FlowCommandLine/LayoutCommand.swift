import Foundation
import FlowGraph
import FlowRuntime

/// `flow layout FILE`: write layered positions into the document, for editors.
enum LayoutCommand {
  static let spec = CommandSpec(
    name: "layout", summary: "Write layered positions into a saved graph's nodes (headless auto-layout).",
    positionals: ["FILE"],
    options: [
      OptionSpec(name: "--output", arity: .single, valueName: "FILE",
                 help: "write the document to FILE (atomically) instead of stdout", short: "-o"),
    ],
    positionalHelp: ["the saved graph (- reads standard input)"],
    discussion: """
      Only each node's position changes (a group with children moves to frame them); every other
      key is kept. Nodes keep their document sizes. Without -o the document goes to stdout, so
      'flow layout g.flow.json -o g.flow.json' rewrites the file in place.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure) -> ExitStatus {
    let file = arguments.positionals[0]
    var document = try DocumentLoading.document(file)
    let graph = try DocumentLoading.validateOuter(document, registry: context.registry, file: file).graph
    let positions = layeredPositions(graph)
    for index in document.nodes.indices {
      document.nodes[index].position = CGPoint(x: positions[index].x, y: positions[index].y)
    }
    let text = document.jsonString() + "\n"
    if let path = arguments.value("--output") { try RenderCommand.write(text, to: path) } else { output = text }
    return .success
  }

  /// The top-left corner of every node, laid out at its document size; ports are spread evenly
  /// down each side, as SwiftFlow draws handles. Groups with children frame them.
  static func layeredPositions(_ graph: ResolvedGraph) -> [(x: Double, y: Double)] {
    let nodes = graph.document.nodes
    var parent: [Int?] = []
    var isGroup: [Bool] = []
    for (index, node) in nodes.enumerated() {
      parent.append(node.parentID.flatMap(graph.nodeIndex(of:)))
      isGroup.append(graph.signatures[index].isContainer || node.data.kind == "group")
    }
    var framed = Set<Int>()
    for child in nodes.indices { if let up = parent[child], isGroup[up] { framed.insert(up) } }
    var vertexOf = [Int32](repeating: -1, count: nodes.count)
    var widths: [Double] = [], heights: [Double] = []
    for index in nodes.indices where !framed.contains(index) {
      vertexOf[index] = Int32(widths.count)
      widths.append(Double(nodes[index].size.width))
      heights.append(Double(nodes[index].size.height))
    }
    func portY(_ node: Int32, _ port: Int32, of count: Int) -> Double {
      Double(nodes[Int(node)].size.height) * Double(port + 1) / Double(count + 1)
    }
    let edges = graph.edges.map { edge in
      LayeredLayout.Edge(source: vertexOf[Int(edge.source)], target: vertexOf[Int(edge.target)],
                         sourcePortY: portY(edge.source, edge.sourcePort, of: graph.signatures[Int(edge.source)].outputs.count),
                         targetPortY: portY(edge.target, edge.targetPort, of: graph.signatures[Int(edge.target)].inputs.count))
    }
    var options = LayeredLayout.Options()
    options.margin = 60
    let layout = LayeredLayout(widths: widths, heights: heights, edges: edges, options: options)
    var rects = nodes.indices.map { index in
      GroupFrames.Rect(x: 0, y: 0, width: Double(nodes[index].size.width), height: Double(nodes[index].size.height))
    }
    for index in nodes.indices where vertexOf[index] >= 0 {
      rects[index].x = layout.x[Int(vertexOf[index])]
      rects[index].y = layout.y[Int(vertexOf[index])]
    }
    for (index, frame) in GroupFrames.frames(rects: rects, parent: parent, isGroup: isGroup) {
      rects[index].x = frame.x
      rects[index].y = frame.y
    }
    return rects.map { ($0.x, $0.y) }
  }
}
