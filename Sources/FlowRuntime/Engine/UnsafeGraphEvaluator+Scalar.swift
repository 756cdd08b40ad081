// The typed fast path of a pass (see "LAYOUT AND THE TYPED PATH" in `Scheduler.swift`).
//
// INVARIANT: `EvaluationGraph.scalarFunctions[c]` is an unretained reference to
// `configurations[c].scalar`; both are written together (`allocateConfiguration`,
// `reconfigure`), so the strong reference in `configurations` keeps the object alive while the
// unretained one is used. A pass does not edit configurations, so the reference stays valid for
// the call. `_withUnsafeGuaranteedRef` calls it without a retain/release pair per node.

extension GraphEvaluator {
  /// Runs `node` on the typed fast path (`ScalarEvaluation`) and returns whether its output
  /// changed; or returns `nil`, having done nothing, when the node must take the general path
  /// (`run`): it has no typed evaluation, is live or inert, is not necessary in a demand-driven
  /// pass, some node is failed or pending, or an input holds something else than its numbers.
  @inline(__always)
  mutating func runScalar(_ node: Int32, log: inout PassLog) -> Bool? {
    let columns = graph.storage.columns
    let record = columns.records[Int(node)]
    guard record.shape != ScalarShape.none,
          record.flags & (EvaluationGraph.Flags.inert.rawValue | EvaluationGraph.Flags.live.rawValue) == 0,
          failedCount == 0, pendingCount == 0,
          !options.demandDriven || demandCount[Int(node)] > 0,
          let function = graph.scalarFunctions[Int(record.configuration)] else { return nil }
    let result: Slot
    do {
      guard let computed = try function._withUnsafeGuaranteedRef({ try $0.compute(record, columns) }) else { return nil }
      result = computed
    } catch {
      log.ran.append(node)
      columns.records[Int(node)].evaluationCount &+= 1
      return recordFailure(node, root: node, message: Self.message(of: error), log: &log)
    }
    log.ran.append(node)
    columns.records[Int(node)].evaluationCount &+= 1
    let output = Int(record.outputStart)
    let old = Slot(bits: columns.slots.bits[output], owner: node, tag: columns.slots.tags[output])
    if old.tag != SlotTag.boxed && old.holdsSameScalar(tag: result.tag, bits: result.bits) {
      log.cutOff.append(node)
      return false
    }
    if old.tag == SlotTag.boxed { graph.releaseBoxed(old.bits) }
    columns.slots.bits[output] = result.bits
    columns.slots.tags[output] = result.tag
    return true
  }
}

extension ScalarEvaluation {
  /// The unretained reference `EvaluationGraph.scalarFunctions` keeps beside the configuration
  /// that retains `evaluation`.
  static func unretained(_ evaluation: ScalarEvaluation?) -> Unmanaged<ScalarEvaluation>? {
    evaluation.map { Unmanaged.passUnretained($0) }
  }

  /// The output of a node of this evaluation from its input slots (owner left -1), or `nil`
  /// when an input does not hold what the function takes.
  @inline(__always)
  func compute(_ record: NodeRecord, _ columns: GraphColumns) throws -> Slot? {
    let start = Int(record.inputStart)
    @inline(__always) func input(_ port: Int) -> Slot {
      let slot = Int(columns.inputSources[start + port])
      return Slot(bits: columns.slots.bits[slot], owner: -1, tag: columns.slots.tags[slot])
    }
    switch body {
    case .number2(let function):
      guard let a = input(0).number, let b = input(1).number else { return nil }
      return Slot(bits: try function(a, b).bitPattern, owner: -1, tag: SlotTag.number)
    case .integer2(let function):
      let a = input(0), b = input(1)
      guard a.tag == SlotTag.integer && b.tag == SlotTag.integer else { return nil }
      let value = try function(Int64(bitPattern: a.bits), Int64(bitPattern: b.bits))
      return Slot(bits: UInt64(bitPattern: value), owner: -1, tag: SlotTag.integer)
    case .number1(let function):
      guard let a = input(0).number else { return nil }
      return Slot(bits: try function(a).bitPattern, owner: -1, tag: SlotTag.number)
    case .integer1(let function):
      let a = input(0)
      guard a.tag == SlotTag.integer else { return nil }
      return Slot(bits: UInt64(bitPattern: try function(Int64(bitPattern: a.bits))), owner: -1, tag: SlotTag.integer)
    case .integerFold(let initial, let combine):
      var total = initial
      for port in 0..<Int(record.inputCount) {
        let a = input(port)
        guard a.tag == SlotTag.integer else { return nil }
        total = combine(total, Int64(bitPattern: a.bits))
      }
      return Slot(bits: UInt64(bitPattern: total), owner: -1, tag: SlotTag.integer)
    case .numberFold(let initial, let combine):
      var total = initial
      for port in 0..<Int(record.inputCount) {
        guard let a = input(port).number else { return nil }
        total = combine(total, a)
      }
      return Slot(bits: total.bitPattern, owner: -1, tag: SlotTag.number)
    }
  }
}

extension Slot {
  /// The slot as a number input reads it (an integer converts), or `nil`.
  @inline(__always)
  var number: Double? {
    switch tag {
    case SlotTag.number: Double(bitPattern: bits)
    case SlotTag.integer: Double(Int64(bitPattern: bits))
    default: nil
    }
  }
}
