import Testing

@testable import FlowGraph
import FlowTestSupport

/// `IDIndex` (the validator's id table) against `[String: Int32]` over random ids, including
/// long, non-ASCII and canonically equivalent ones: the same positions, the same duplicates.
@Suite struct IDIndexTests {
  /// Ids from a small alphabet (so they repeat), some long, some non-ASCII, some spelt in two
  /// canonically equivalent ways (`é` / `e` + U+0301, `K` / U+212A KELVIN SIGN).
  static func randomID(_ random: inout SeededRandom) -> String {
    let pieces = ["a", "b", "n1", "é", "e\u{301}", "K", "\u{212A}", "Å", "\u{212B}", "node-", "😀", "x", "0"]
    let length = Int(random.next() % 6) + (random.next() % 10 == 0 ? 20 : 0)
    return (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
  }

  @Test(arguments: 0..<200)
  func indexesLikeADictionary(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let ids = (0..<Int(random.next() % 300)).map { _ in Self.randomID(&random) }
    // Start small so that the table grows while inserting.
    var index = IDIndex(capacity: Int(random.next() % 4))
    var reference: [String: Int32] = [:]
    for (position, id) in ids.enumerated() {
      let existing = index.insert(id, at: Int32(position)) { ids[Int($0)] }
      #expect(existing == reference[id], "\(id)")
      if reference[id] == nil { reference[id] = Int32(position) }
    }
    #expect(index.count == reference.count)
    for _ in 0..<100 {
      let probe = Self.randomID(&random)
      #expect(index.position(of: probe) { ids[Int($0)] } == reference[probe], "\(probe)")
    }
    for id in ids { #expect(index.position(of: id) { ids[Int($0)] } == reference[id]) }
    // Inserting in batches finds the same duplicates, in order.
    var batchedIndex = IDIndex(capacity: ids.count)
    var duplicates: [[Int32]] = []
    batchedIndex.insertAll(count: ids.count, id: { ids[$0] }, idAt: { ids[Int($0)] }) {
      duplicates.append([Int32($0), $1])
    }
    #expect(
      duplicates
        == ids.indices.compactMap { position in
          reference[ids[position]].flatMap { $0 == Int32(position) ? nil : [Int32(position), $0] }
        })
    // The batched lookup agrees, over more ids than one batch, known and unknown.
    let probes = ids + (0..<40).map { _ in Self.randomID(&random) }
    let batched = index.positions(count: probes.count, id: { probes[$0] }, idAt: { ids[Int($0)] })
    #expect(batched == probes.map { reference[$0] ?? -1 })
    #expect(Set(index.positions) == Set(reference.values))
  }

  @Test func canonicallyEquivalentNodeIDsAreDuplicates() {
    let document = FlowDocument(nodes: [
      .node("K", "number"), .node("\u{212A}", "number"),
      .node("caf\u{E9}", "number"), .node("cafe\u{301}", "number")
    ])
    #expect(
      document.validationIssues().map(\.message) == [
        "duplicate node id '\u{212A}' (nodes[1])",
        "duplicate node id 'cafe\u{301}' (nodes[3])"
      ])
  }

  @Test func anEdgeFindsItsNodeUnderAnEquivalentSpelling() throws {
    let document = FlowDocument(
      nodes: [.node("caf\u{E9}", "number"), .node("\u{212A}", "pass")],
      edges: [.edge("e1", "cafe\u{301}", "K")])
    #expect(document.validationIssues() == [])
  }
}
