import FlowGraph
import FlowTestSupport
import Testing

/// `NodeIDTable` against a `[String: Int32]` over random appends, re-indexing and removals
/// (including ids that come back as new nodes, and colliding probe runs in a small table).
@Suite struct NodeIDTableTests {
  @Test(arguments: 0..<40)
  func matchesADictionary(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed) &+ 11)
    var table = NodeIDTable()
    var reference: [String: Int32] = [:]
    var ids: [String] = []
    let names = (0..<(seed % 5 == 0 ? 12 : 300)).map { "n\($0)" }
    for _ in 0..<2_000 {
      let name = names[Int(random.next() % UInt64(names.count))]
      switch random.next() % 3 {
      case 0, 1:
        guard reference[name] == nil else { continue }
        let node = Int32(ids.count)
        ids.append(name)
        table.append(name)
        table[name] = node
        reference[name] = node
      default:
        table[name] = nil
        reference[name] = nil
      }
      let probe = names[Int(random.next() % UInt64(names.count))]
      #expect(table[probe] == reference[probe])
    }
    #expect(table.ids == ids)
    for name in names { #expect(table[name] == reference[name], "id \(name)") }
  }

  @Test func buildsFromIDsAndFindsEach() {
    let ids = (0..<10_000).map { "node-\($0)" }
    let table = NodeIDTable(ids)
    #expect(ids.indices.allSatisfy { table[ids[$0]] == Int32($0) })
    #expect(table["node-10000"] == nil)
    #expect(table.allocatedBytes - table.ids.capacity * MemoryLayout<String>.stride <= 11 * ids.count)
  }
}
