/// Who hands each queued change to the store's handlers, and when: a pure state machine (no
/// locks, no threads), run under the store's lock by `FlowStore.deliver(_:)`.
///
/// Every queued change has an *assignee*, a mutating call that delivers it before it returns.
/// A call is assigned its own change; the changes its handlers make (nested calls, on the
/// thread that is delivering); and, as help, at most `helpPerChange` changes of other threads
/// per change of its own, taken while it still has changes to deliver. A call that finds no
/// such room is assigned its own change and delivers it itself when its turn comes, waiting
/// for the changes before it. Hence:
/// - changes are delivered one at a time, in queue (revision) order, each exactly once;
/// - a call delivers at most `(1 + helpPerChange)` times as many changes as it made — never
///   an unbounded share of other threads' work;
/// - a call returns only when every change assigned to it was delivered, so none is left
///   behind when the last mutator returns; a helped call may return before its change is
///   delivered (by the helper, on another thread);
/// - a delivered change leaves the queue at once, so the queue holds only undelivered ones.
///
/// Invariants: each queued entry's assignee is in `calls`, whose `assigned` counts its queued
/// entries plus the one it is delivering; a call leaves `calls` when `assigned` drops to 0;
/// `delivering`, if set, names a call in `calls`.
struct ChangeDelivery: Sendable {
  typealias CallID = UInt64

  /// How many changes of other threads a call may take on per change of its own.
  static let helpPerChange = 1

  struct Entry: Sendable {
    var change: FlowStoreChange
    var assignee: CallID
    /// Whether the assignee takes it on as help (it was made by another call).
    var isHelp = false
  }

  /// A mutating call with changes still to deliver.
  struct Call: Sendable {
    var id: CallID
    /// Its queued changes plus the one it is delivering.
    var assigned: Int
    /// How many more changes of other threads it may take on.
    var helpLeft: Int
    /// Changes of other threads it delivered.
    var helped = 0
  }

  /// What a call does next.
  enum Step: Sendable {
    /// Hand this change to the handlers, then call `finish(_:)`.
    case deliver(FlowStoreChange)
    /// Wait until `finish(_:)` names this call.
    case wait
    /// Return: nothing is left for this call to deliver.
    case done
  }

  /// The undelivered changes in revision order, with their assignees.
  private(set) var queue = FIFOQueue<Entry>()
  private(set) var calls: [Call] = []
  /// The call handing a change to the handlers now, its thread, and whether the change is help.
  private(set) var delivering: (call: CallID, thread: UInt, isHelp: Bool)?
  private var nextCallID: CallID = 0
  /// The most changes of other threads one call delivered so far (for tests).
  private(set) var mostHelped = 0

  /// Queues `change`, made by a call on `thread`.
  ///
  /// - Returns: the call that must now run `next(_:)` until `.done`; `nil` if another call
  ///   (the one delivering on this thread, or a helper) will deliver the change.
  mutating func enqueue(_ change: FlowStoreChange, thread: UInt) -> CallID? {
    if let delivering, delivering.thread == thread {  // made by a handler: its call delivers it
      let index = callIndex(delivering.call)
      calls[index].assigned += 1
      calls[index].helpLeft += Self.helpPerChange
      queue.append(Entry(change: change, assignee: delivering.call))
      return nil
    }
    if let helper = queue.last?.assignee ?? delivering?.call, case let index = callIndex(helper),
      calls[index].helpLeft > 0
    {
      calls[index].assigned += 1
      calls[index].helpLeft -= 1
      queue.append(Entry(change: change, assignee: helper, isHelp: true))
      return nil
    }
    nextCallID += 1
    calls.append(Call(id: nextCallID, assigned: 1, helpLeft: Self.helpPerChange))
    queue.append(Entry(change: change, assignee: nextCallID))
    return nextCallID
  }

  /// What `call`, on `thread`, does next: deliver the oldest change if it is its own and no
  /// delivery is under way, return if it has nothing left, wait otherwise.
  mutating func next(_ call: CallID, thread: UInt) -> Step {
    guard calls.contains(where: { $0.id == call }) else { return .done }
    guard delivering == nil, let head = queue.first, head.assignee == call else { return .wait }
    let entry = queue.popFirst()!
    delivering = (call, thread, entry.isHelp)
    return .deliver(entry.change)
  }

  /// Ends the delivery under way (by `call`) of one change.
  ///
  /// - Returns: the call whose turn it now is, if it is another one (to wake it).
  mutating func finish(_ call: CallID) -> CallID? {
    let isHelp = delivering?.isHelp ?? false
    delivering = nil
    let index = callIndex(call)
    calls[index].assigned -= 1
    if isHelp { calls[index].helped += 1 }
    if calls[index].assigned == 0 {
      mostHelped = max(mostHelped, calls[index].helped)
      calls.remove(at: index)
    }
    guard let head = queue.first, head.assignee != call else { return nil }
    return head.assignee
  }

  private func callIndex(_ id: CallID) -> Int {
    guard let index = calls.firstIndex(where: { $0.id == id }) else {
      preconditionFailure("Internal inconsistency: delivery call \(id) unknown")
    }
    return index
  }

  /// Traps unless the invariants of the type hold (only with `FLOW_INTERNAL_CHECKS`).
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    queue._checkInvariants()
    for call in calls {
      var queued = 0
      var probe = queue
      while let entry = probe.popFirst() { if entry.assignee == call.id { queued += 1 } }
      let delivering = self.delivering?.call == call.id ? 1 : 0
      precondition(
        call.assigned == queued + delivering && call.assigned > 0,
        "Internal inconsistency: delivery call \(call.id) has \(call.assigned) assigned, \(queued) queued")
    }
    #endif
  }
}
