import Testing

@testable import FlowGraph
import FlowTestSupport

@Suite struct RingBufferTests {
  /// Random pushes, pops, clears, capacity changes and transforms against an array that drops
  /// its first element when it grows past the capacity.
  @Test(arguments: 0..<200)
  func matchesABoundedArray(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var capacity = Int.random(in: 0...5, using: &random)
    var ring = RingBuffer<Int>(capacity: capacity)
    var model: [Int] = []
    for step in 0..<200 {
      let context = Comment(rawValue: "seed \(seed), step \(step)")
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<55:
        let evicted = ring.append(step)
        model.append(step)
        let expected = model.count > capacity ? model.removeFirst() : nil
        #expect(evicted == expected, context)
      case 55..<85:
        #expect(ring.popLast() == model.popLast(), context)
      case 85..<90:
        ring.removeAll()
        model.removeAll()
      case 90..<95:
        capacity = Int.random(in: 0...6, using: &random)
        ring.setCapacity(capacity)
        model = Array(model.suffix(capacity))
      default:
        ring.transform { $0 * 2 }
        model = model.map { $0 * 2 }
      }
      #expect(ring.elements == model, context)
      #expect(ring.count == model.count && ring.last == model.last && ring.isEmpty == model.isEmpty, context)
      #expect(ring.capacity == capacity, context)
      ring._checkInvariants()
    }
  }
}
