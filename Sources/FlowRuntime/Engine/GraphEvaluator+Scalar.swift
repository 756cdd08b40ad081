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
          !options.demandDriven || demandCount[Int(node)] > 0 else { return nil }
    let start = Int(record.inputStart)
    let result: Slot
    do {
      switch graph.scalarBodies[Int(record.configuration)]?.body {
      case .number2(let function)?:
        guard let a = columns.slots[Int(columns.inputSources[start])].number,
              let b = columns.slots[Int(columns.inputSources[start + 1])].number else { return nil }
        result = Slot(bits: try function(a, b).bitPattern, owner: node, tag: SlotTag.number)
      case .integer2(let function)?:
        let a = columns.slots[Int(columns.inputSources[start])], b = columns.slots[Int(columns.inputSources[start + 1])]
        guard a.tag == SlotTag.integer && b.tag == SlotTag.integer else { return nil }
        let value = try function(Int64(bitPattern: a.bits), Int64(bitPattern: b.bits))
        result = Slot(bits: UInt64(bitPattern: value), owner: node, tag: SlotTag.integer)
      case .number1(let function)?:
        guard let a = columns.slots[Int(columns.inputSources[start])].number else { return nil }
        result = Slot(bits: try function(a).bitPattern, owner: node, tag: SlotTag.number)
      case .integer1(let function)?:
        let a = columns.slots[Int(columns.inputSources[start])]
        guard a.tag == SlotTag.integer else { return nil }
        result = Slot(bits: UInt64(bitPattern: try function(Int64(bitPattern: a.bits))), owner: node, tag: SlotTag.integer)
      case .integerFold(let initial, let combine)?:
        var total = initial
        for port in 0..<Int(record.inputCount) {
          let a = columns.slots[Int(columns.inputSources[start + port])]
          guard a.tag == SlotTag.integer else { return nil }
          total = combine(total, Int64(bitPattern: a.bits))
        }
        result = Slot(bits: UInt64(bitPattern: total), owner: node, tag: SlotTag.integer)
      case .numberFold(let initial, let combine)?:
        var total = initial
        for port in 0..<Int(record.inputCount) {
          guard let a = columns.slots[Int(columns.inputSources[start + port])].number else { return nil }
          total = combine(total, a)
        }
        result = Slot(bits: total.bitPattern, owner: node, tag: SlotTag.number)
      case nil:
        return nil
      }
    } catch {
      log.ran.append(node)
      columns.records[Int(node)].evaluationCount &+= 1
      return recordFailure(node, root: node, message: Self.message(of: error), log: &log)
    }
    log.ran.append(node)
    columns.records[Int(node)].evaluationCount &+= 1
    let output = Int(record.outputStart)
    let old = columns.slots[output]
    if old.tag != SlotTag.boxed && old.holdsSameScalar(tag: result.tag, bits: result.bits) {
      log.cutOff.append(node)
      return false
    }
    if old.tag == SlotTag.boxed { graph.releaseBoxed(old.bits) }
    columns.slots[output] = result
    return true
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
