// The typed fast path of a pass (see "Layout and the typed path" in
// `Documentation/Evaluation.md`).
//
// INVARIANT: `EvaluationGraph.scalarFunctions[c]` is an unretained reference to
// `configurations[c].scalar`; both are written together (`allocateConfiguration`,
// `reconfigure`), so the strong reference in `configurations` keeps the object alive while the
// unretained one is used. A pass does not edit configurations, so the reference stays valid for
// the call. `_withUnsafeGuaranteedRef` calls it without a retain/release pair per node.

/// What `GraphEvaluator.runScalar` did with a node.
enum ScalarOutcome {
  /// Nothing: the node takes the general path.
  case fallback
  /// It ran (or failed) and nothing about it changed: cut off.
  case unchanged
  /// It ran (or failed) and its output or failure state changed.
  case changed
}

extension GraphEvaluator {
  /// Runs `node` on the typed fast path (`ScalarEvaluation`); or returns `.fallback`, having done
  /// nothing, when the node must take the general path (`run`): it has no typed evaluation, is
  /// live or inert, is not necessary in a demand-driven pass, some node is failed or pending, or
  /// an input holds something else than its numbers.
  /// - Parameter columns: the graph's columns, as the pass read them when it began.
  // `@_transparent` because `@inline(__always)` left it a call from the (large) pass loop.
  @_transparent
  mutating func runScalar(_ node: Int32, _ columns: GraphColumns, log: inout PassLog) -> ScalarOutcome {
    // Field by field through the record's address, not a copy of all 48 bytes (see `address`).
    let record = columns.records.address(Int(node))
    let shape = record.pointee.shape
    guard shape != ScalarShape.none,
      record.pointee.flags & (EvaluationGraph.Flags.inert.rawValue | EvaluationGraph.Flags.live.rawValue) == 0,
      failureTable.count == 0, pendingSet.count == 0,
      !options.demandDriven || demand.counts[Int(node)] > 0,
      let function = graph.scalarFunctions[Int(record.pointee.configuration)]
    else { return .fallback }
    var thrown: (any Error)?
    let inputStart = Int(record.pointee.inputStart), inputCount = Int(record.pointee.inputCount)
    // The result comes back as a tag and, through `bits`, a payload: plain same-size stores
    // and loads (an optional `Slot` returned through memory is written field by field and read
    // back wider, which defeats store-to-load forwarding).
    var bits: UInt64 = 0
    // A boundary or instance node's forward is a case of `compute`, and a sink (no output)
    // its no-result path: the common shapes pay no extra branch for them.
    let tag = function._withUnsafeGuaranteedRef {
      $0.compute(shape: shape, inputStart: inputStart, inputCount: inputCount, columns, bits: &bits, thrown: &thrown)
    }
    guard tag != ScalarEvaluation.noResult else {
      guard let thrown else {
        guard shape == ScalarShape.sink else { return .fallback }
        log.ran.append(node)
        record.pointee.evaluationCount &+= 1
        log.cutOff.append(node)
        return .unchanged
      }
      return scalarFailed(node, thrown, log: &log)
    }
    log.ran.append(node)
    record.pointee.evaluationCount &+= 1
    let output = Int(record.pointee.outputStart)
    let oldTag = columns.slots.tags[output]
    if oldTag != SlotTag.boxed
      && Slot(bits: columns.slots.bits[output], owner: node, tag: oldTag)
        .holdsSameScalar(tag: tag, bits: bits)
    {
      log.cutOff.append(node)
      return .unchanged
    }
    if oldTag == SlotTag.boxed { graph.releaseBoxed(columns.slots.bits[output]) }
    columns.slots.bits[output] = bits
    columns.slots.tags[output] = tag
    return .changed
  }

  /// A typed evaluation threw: the node ran and failed (the general path's bookkeeping).
  @inline(never)
  mutating func scalarFailed(_ node: Int32, _ error: any Error, log: inout PassLog) -> ScalarOutcome {
    log.ran.append(node)
    graph.storage.records[Int(node)].evaluationCount &+= 1
    return recordFailure(node, root: node, message: Self.message(of: error), log: &log) ? .changed : .unchanged
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
  /// Returns the result's tag and sets `bits` to its payload, or returns `noResult` when an
  /// input does not hold what the function takes or the function threw (then `thrown` holds
  /// the error), keeping the hot path free of unwinding.
  @inline(__always)
  func compute(
    shape: UInt8, inputStart start: Int, inputCount: Int, _ columns: GraphColumns,
    bits: inout UInt64, thrown: inout (any Error)?
  ) -> UInt8 {
    do {
      guard let slot = try compute(shape: shape, inputStart: start, inputCount: inputCount, columns) else {
        return Self.noResult
      }
      bits = slot.bits
      return slot.tag
    } catch {
      thrown = error
      return Self.noResult
    }
  }

  /// The tag `compute` returns for no result.
  static let noResult: UInt8 = 0xFF

  @inline(__always)
  func compute(shape: UInt8, inputStart start: Int, inputCount: Int, _ columns: GraphColumns) throws -> Slot? {
    @inline(__always) func input(_ port: Int) -> Slot {
      let slot = Int(columns.inputSources[start + port])
      return Slot(bits: columns.slots.bits[slot], owner: -1, tag: columns.slots.tags[slot])
    }
    // `shape` (the node record's) was made from this evaluation (`ScalarShape.of`), so the
    // property of that shape holds the function.
    switch shape {
    case ScalarShape.number2:
      guard let a = input(0).number, let b = input(1).number, let function = number2 else { return nil }
      return Slot(bits: try function(a, b).bitPattern, owner: -1, tag: SlotTag.number)
    case ScalarShape.integer2:
      let a = input(0), b = input(1)
      guard a.tag == SlotTag.integer && b.tag == SlotTag.integer, let function = integer2 else { return nil }
      let value = try function(Int64(bitPattern: a.bits), Int64(bitPattern: b.bits))
      return Slot(bits: UInt64(bitPattern: value), owner: -1, tag: SlotTag.integer)
    case ScalarShape.number1:
      guard let a = input(0).number, let function = number1 else { return nil }
      return Slot(bits: try function(a).bitPattern, owner: -1, tag: SlotTag.number)
    case ScalarShape.integer1:
      let a = input(0)
      guard a.tag == SlotTag.integer, let function = integer1 else { return nil }
      return Slot(bits: UInt64(bitPattern: try function(Int64(bitPattern: a.bits))), owner: -1, tag: SlotTag.integer)
    case ScalarShape.integerFold:
      guard let combine = integerFold else { return nil }
      var total = integerInitial
      for port in 0..<inputCount {
        let a = input(port)
        guard a.tag == SlotTag.integer else { return nil }
        total = combine(total, Int64(bitPattern: a.bits))
      }
      return Slot(bits: UInt64(bitPattern: total), owner: -1, tag: SlotTag.integer)
    case ScalarShape.forward:
      // The input as is: a number, integer or bool (anything else takes the general path).
      let a = input(0)
      guard a.tag <= SlotTag.bool else { return nil }
      return Slot(bits: a.bits, owner: -1, tag: a.tag)
    case ScalarShape.numberFold:
      guard let combine = numberFold else { return nil }
      var total = numberInitial
      for port in 0..<inputCount {
        guard let a = input(port).number else { return nil }
        total = combine(total, a)
      }
      return Slot(bits: total.bitPattern, owner: -1, tag: SlotTag.number)
    default:
      return nil
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
