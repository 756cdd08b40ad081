import Testing

@testable import FlowGraph

/// `ChangeDelivery` on its own: scripted calls on made-up threads, no locks, no waiting.
@Suite struct ChangeDeliveryTests {
  static func change(_ revision: Int) -> FlowStoreChange { FlowStoreChange(revision: revision, items: []) }

  static func delivered(_ step: ChangeDelivery.Step) -> Int? {
    if case .deliver(let change) = step { change.revision } else { nil }
  }

  static func isWait(_ step: ChangeDelivery.Step) -> Bool { if case .wait = step { true } else { false } }
  static func isDone(_ step: ChangeDelivery.Step) -> Bool { if case .done = step { true } else { false } }

  // A (thread 1): r1 ─ deliver r1 ······················ deliver r2 (help) ─ done
  // B (thread 2):            r2: taken on by A (returns)
  // C (thread 3):            r3: A has no help left ─ wait ··················· woken ─ deliver r3 ─ done
  @Test func aCallTakesOnOneForeignChangePerChangeOfItsOwnAndHandsTheRestBack() throws {
    var machine = ChangeDelivery()
    let queued1 = machine.enqueue(Self.change(1), thread: 1)
    let a = try #require(queued1)
    #expect(Self.delivered(machine.next(a, thread: 1)) == 1)
    #expect(machine.enqueue(Self.change(2), thread: 2) == nil)
    let queued3 = machine.enqueue(Self.change(3), thread: 3)
    let c = try #require(queued3)
    #expect(Self.isWait(machine.next(c, thread: 3)))
    machine._checkInvariants()
    #expect(machine.finish(a) == nil)  // the next change is A's own
    #expect(Self.delivered(machine.next(a, thread: 1)) == 2)
    #expect(Self.isWait(machine.next(c, thread: 3)))  // one delivery at a time
    #expect(machine.finish(a) == c)  // C's turn: wake it
    #expect(Self.isDone(machine.next(a, thread: 1)))
    #expect(Self.delivered(machine.next(c, thread: 3)) == 3)
    #expect(machine.finish(c) == nil)
    #expect(Self.isDone(machine.next(c, thread: 3)))
    #expect(machine.mostHelped == 1)
    #expect(machine.queue.isEmpty && machine.calls.isEmpty && machine.queue._liveSlotCount == 0)
  }

  // A (thread 1): r1 ─ deliver r1 ─ handler: r2, r3 (nested: A's own) ─ deliver r2 ─ deliver r3 ─ done
  @Test func changesMadeByAHandlerBelongToTheDeliveringCall() throws {
    var machine = ChangeDelivery()
    let queued1 = machine.enqueue(Self.change(1), thread: 1)
    let a = try #require(queued1)
    #expect(Self.delivered(machine.next(a, thread: 1)) == 1)
    #expect(machine.enqueue(Self.change(2), thread: 1) == nil)
    #expect(machine.enqueue(Self.change(3), thread: 1) == nil)
    #expect(machine.queue.count == 2)
    #expect(machine.finish(a) == nil)
    #expect(Self.delivered(machine.next(a, thread: 1)) == 2)
    #expect(machine.queue._liveSlotCount == 1)  // r1 and r2 are no longer held
    #expect(machine.finish(a) == nil)
    #expect(Self.delivered(machine.next(a, thread: 1)) == 3)
    #expect(machine.finish(a) == nil)
    #expect(Self.isDone(machine.next(a, thread: 1)))
    #expect(machine.mostHelped == 0)
  }

  @Test func aQueueReleasesWhatItHandsOutAndKeepsOrderAcrossGrowth() {
    var queue = FIFOQueue<[Int]>()
    var expected: [[Int]] = []
    for round in 0..<50 {
      for item in 0..<(round % 7 + 1) {
        queue.append([round, item])
        expected.append([round, item])
      }
      for _ in 0..<(round % 5) where !expected.isEmpty {
        #expect(queue.popFirst() == expected.removeFirst())
      }
      #expect(queue.count == expected.count && queue._liveSlotCount == expected.count)
      #expect(queue.first == expected.first && queue.last == expected.last)
      queue._checkInvariants()
    }
    while let element = queue.popFirst() { #expect(element == expected.removeFirst()) }
    #expect(expected.isEmpty && queue._liveSlotCount == 0)
  }
}
