import FlowTestSupport
import Testing

@testable import FlowGraph

/// `StoreEdgeLists` against plain per-node arrays over random edits: inputs resized (runs that
/// outgrow their capacity move, and with a low threshold the inputs are rebuilt many times), and
/// outgoing lists kept sorted while their runs double and move.
@Suite struct StoreEdgeListsTests {
  @Test(arguments: 0..<20)
  func randomEditsMatchPerNodeArrays(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 31)
    let nodeCount = 8
    var inputs = (0..<nodeCount).map { _ in [Int32](repeating: -1, count: Int.random(in: 0...3, using: &random)) }
    var outputs = [[Int32]](repeating: [], count: nodeCount)
    var removed = [[Int32]](repeating: [], count: nodeCount)
    var lists = StoreEdgeLists(inputCounts: inputs.map(\.count), outDegrees: [Int32](repeating: 0, count: nodeCount))
    lists.garbageMinimum = 0  // rebuild as soon as abandoned runs outweigh live ones
    var nextEdge: Int32 = 0
    var sawInputCompaction = false
    var peakDegree = [Int](repeating: 0, count: nodeCount)
    for step in 0..<3_000 {
      let node = Int32.random(in: 0..<Int32(nodeCount), using: &random)
      let inputLength = lists.inputs.count
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<2:  // a new signature: more or fewer inputs, all free
        let count = Int.random(in: 0...30, using: &random)
        lists.setInputCount(of: node, to: count)
        inputs[Int(node)] = [Int32](repeating: -1, count: count)
      case 2..<4:
        guard !inputs[Int(node)].isEmpty else { continue }
        let port = Int.random(in: 0..<inputs[Int(node)].count, using: &random)
        let edge: Int32 = Bool.random(using: &random) ? -1 : Int32.random(in: 0..<1_000, using: &random)
        lists.setInput(of: node, port: Int32(port), to: edge)
        inputs[Int(node)][port] = edge
      case 4..<8:  // a new edge slot, or a removed one coming back (undo) in the middle of the list
        var edge = nextEdge
        if Bool.random(using: &random), let back = removed[Int(node)].popLast() {
          edge = back
        } else {
          nextEdge += 1
        }
        lists.insertOutput(edge, of: node)
        outputs[Int(node)].append(edge)
        peakDegree[Int(node)] = max(peakDegree[Int(node)], outputs[Int(node)].count)
      default:
        guard let edge = outputs[Int(node)].randomElement(using: &random) else { continue }
        lists.removeOutput(edge, of: node)
        outputs[Int(node)].removeAll { $0 == edge }
        removed[Int(node)].append(edge)
      }
      if lists.inputs.count < inputLength { sawInputCompaction = true }
      lists._checkInvariants()
      for index in step % 50 == 0 ? 0..<nodeCount : Int(node)..<Int(node + 1) {
        #expect(Array(lists.inputs(of: Int32(index))) == inputs[index], "seed \(seed), step \(step), node \(index)")
        #expect(
          Array(lists.outputs(of: Int32(index))) == outputs[index].sorted(), "seed \(seed), step \(step), node \(index)"
        )
      }
    }
    #expect(sawInputCompaction, "the test is meant to rebuild the inputs")
    // Outgoing runs are never rebuilt: doubling keeps them under 4× the peak out-degrees.
    #expect(lists.outputs.count <= 4 * peakDegree.reduce(0, +))
  }
}
