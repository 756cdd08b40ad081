import FlowRuntime

/// One chain `(readCSV | readParquet) → (filter | derive | select)* → [groupBy | writeCSV]` of a one-shot run, executed
/// morsel by morsel (`StreamingPlan` finds the chains and wraps each of their nodes' evaluators
/// in a `StageEvaluator`, by node id).
///
/// When the engine evaluates the head (the reader), the head runs the whole chain: it reads
/// the file in morsels (`MorselSource`: blocks of a CSV file, row groups of a Parquet file), passes each through the row-local nodes' own evaluators
/// (their kernels, on a morsel), and adds it to the `groupBy`'s running aggregates
/// (`GroupByStream`), or appends its rows (the writer's own bytes) to the `writeCSV`'s atomic
/// temporary file, or keeps the last node's morsel output (concatenated at the end: that
/// node's table, whoever reads it). The nodes then run as the engine schedules them: the
/// intermediate ones hand on an empty placeholder table (their one consumer is the next node
/// of the chain, which ignores it), the last one hands on the result. So the engine's ran set,
/// failures and cut-offs are those of the materialized run.
///
/// If anything goes wrong while streaming — an error of any node, a file the morsel reader
/// gives up on (`CSVMorsels.Fallback`) — the chain runs materialized instead, every node by its
/// own evaluator on whole tables, so each error is exactly the materialized one, named by the
/// node that fails. (An error costs the reading done so far.)
package final class StreamedChain: Sendable {
  /// The chain's nodes, head first.
  package let nodeIDs: [String]
  /// What the last node is.
  enum End: Sendable {
    /// A row-local node: its morsels' tables, concatenated.
    case collect
    /// A `groupBy`: running aggregates (`GroupByStream`).
    case groupBy
    /// A `writeCSV`: each morsel's rows appended to the atomic temporary file.
    case writeCSV
  }

  let end: End
  /// Bytes per morsel.
  let morselBytes: Int
  /// The run's limits: a node whose table would pass `maxRows`, or hold a cell past
  /// `maxStringBytes`, or a morsel after which memory is past `maxMemoryBytes`, makes the chain
  /// run materialized (where the engine fails it, as always).
  let limits: RunLimits

  enum Outcome: Sendable {
    case pending
    /// Streamed: the last node's outputs and each node's time.
    case streamed([Value], [Duration])
    case materialized
  }

  struct State: Sendable {
    var evaluators: [(any NodeEvaluator)?]
    var outcome = Outcome.pending
  }

  private let state: Locked<State>

  init(nodeIDs: [String], end: End, morselBytes: Int, limits: RunLimits) {
    self.nodeIDs = nodeIDs
    self.limits = limits
    self.end = end
    self.morselBytes = morselBytes
    state = Locked(State(evaluators: [(any NodeEvaluator)?](repeating: nil, count: nodeIDs.count)))
  }

  /// Records the kind's own evaluator of node `stage` (as the node is configured).
  func setEvaluator(_ evaluator: any NodeEvaluator, at stage: Int) {
    state.withLock { $0.evaluators[stage] = evaluator }
  }

  /// Each node's time if the chain streamed, else `nil` (the engine's times stand).
  package var streamedDurations: [String: Duration]? {
    guard case .streamed(_, let durations) = state.withLock({ $0.outcome }) else { return nil }
    return Dictionary(uniqueKeysWithValues: zip(nodeIDs, durations))
  }

  /// Evaluates node `stage` of the chain (see the type).
  func evaluate(stage: Int, base: any NodeEvaluator, _ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    if stage == 0 {
      try evaluateHead(base: base, inputs, &outputs)
      return
    }
    switch state.withLock({ $0.outcome }) {
    case .streamed(let values, _):
      if stage == nodeIDs.count - 1 {
        for (port, value) in values.enumerated() { outputs[port] = value }
      } else {
        outputs[0] = .table(Table())
      }
    case .pending, .materialized:
      try base.evaluate(inputs, &outputs)
    }
  }

  private func evaluateHead(base: any NodeEvaluator, _ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let evaluators = state.withLock { $0.evaluators }.compactMap { $0 }
    if evaluators.count == nodeIDs.count, let reader = base as? any MorselSource {
      do {
        let (values, durations) = try stream(reader, evaluators)
        state.withLock { $0.outcome = .streamed(values, durations) }
        outputs[0] = .table(Table())
        return
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        // Materialized below: the errors of the whole tables, by the node that fails.
      }
    }
    state.withLock { $0.outcome = .materialized }
    try base.evaluate(inputs, &outputs)
  }

  /// The last node's outputs and each node's time, streaming.
  private func stream(_ head: any MorselSource, _ evaluators: [any NodeEvaluator]) throws -> ([Value], [Duration]) {
    let clock = ContinuousClock()
    let started = clock.now
    let last = nodeIDs.count - 1
    var durations = [Duration](repeating: .zero, count: nodeIDs.count)
    let rowLocal = end == .collect ? 1..<nodeIDs.count : 1..<last
    var rows = [Int](repeating: 0, count: nodeIDs.count)
    let limits = limits
    // A streamed `groupBy`'s keys: each morsel's groups are found with the morsel.
    let groupBy = end == .groupBy ? evaluators[last] as? GroupByNode.Evaluator : nil
    let groupKeys = groupBy?.keys
    let (listsGroups, deferred) = Self.grouping(groupBy, evaluators, rowLocal)
    /// A morsel through the row-local nodes (on the reader's threads, several morsels at once
    /// where it reads them so): the last one's table, and each node's rows and time.
    @Sendable func transform(_ morsel: Table, threads: Int) throws -> Stages {
      var stages = Stages(table: morsel, rows: [morsel.rowCount], durations: [], codes: nil)
      if limits.longCellError(in: morsel) != nil { throw CSVMorsels.Fallback() }
      // The rows a deferred `filter` kept (`nil`: every row).
      var kept: [Int32]?
      for stage in rowLocal {
        let start = clock.now
        let evaluator = (evaluators[stage] as? any RowLocalEvaluator)?.limited(toWorkers: threads) ?? evaluators[stage]
        if stage == deferred, let filter = evaluator as? FilterNode.Evaluator {
          kept = try filter.selection(of: stages.table)
        } else {
          do {
            stages.table = try Self.run(evaluator, on: stages.table, limits: limits)
          } catch let error where kept != nil && !(error is CancellationError) {
            // A row the filter dropped may fail where the kept ones do not: the kept rows,
            // gathered, as without the deferral (an error of theirs is the node's own).
            stages.table = stages.table.gathering(kept!, workers: threads)
            kept = nil
            stages.table = try Self.run(evaluator, on: stages.table, limits: limits)
          }
        }
        stages.rows.append(kept?.count ?? stages.table.rowCount)
        stages.durations.append(start.duration(to: clock.now))
      }
      if let groupKeys {
        let start = clock.now
        let codes = try GroupByStream.codes(of: stages.table, keys: groupKeys, workers: 1)
        stages.codes = codes
        if listsGroups { stages.grouped = GroupRows(codes: codes.local, groupCount: codes.count, selection: kept) }
        stages.groupTime = start.duration(to: clock.now)
      }
      return stages
    }
    /// Reads the file and hands each morsel, through the row-local nodes, to `sink`.
    var reading: Duration?
    func morsels(_ sink: (Stages) throws -> Void) throws {
      reading = try head.readMorsels(morselBytes: morselBytes, transform: transform) { stages in
        for (offset, count) in stages.rows.enumerated() {
          rows[offset] += count
          if rows[offset] > limits.maxRows { throw CSVMorsels.Fallback() }
        }
        for (offset, duration) in stages.durations.enumerated() { durations[rowLocal.lowerBound + offset] += duration }
        // Past the memory limit, the chain runs materialized, where the node that crosses it
        // fails by its own name (streaming, the engine would blame the chain's reader).
        do { try limits.checkMemory(adding: 0, for: "the chain") } catch { throw CSVMorsels.Fallback() }
        let start = clock.now
        try sink(stages)
        durations[last] += start.duration(to: clock.now) + stages.groupTime
      }
    }
    var values: [Value]
    switch end {
    case .collect:
      var collected: [Table] = []
      try morsels { collected.append($0.table) }
      let start = clock.now
      values = [.table(try TableConcatenation.rows(of: collected))]
      collected = []
      durations[last] += start.duration(to: clock.now)
    case .groupBy:
      guard let groupBy = evaluators[last] as? GroupByNode.Evaluator, GroupByStream.supports(groupBy.aggregates)
      else { throw CSVMorsels.Fallback() }
      var grouping = GroupByStream(keys: groupBy.keys, aggregates: groupBy.aggregates)
      let workers = Swift.max(1, groupBy.workers - 1)
      try morsels { stages in
        if let codes = stages.codes, let grouped = stages.grouped {
          try grouping.add(stages.table, codes: codes, grouped: grouped, workers: workers)
        } else if let codes = stages.codes {
          try grouping.add(stages.table, codes: codes, workers: workers)
        } else {
          try grouping.add(stages.table, workers: workers)
        }
      }
      let start = clock.now
      let result = try grouping.result()
      rows[last] = result.rowCount
      if rows[last] > limits.maxRows || limits.longCellError(in: result) != nil { throw CSVMorsels.Fallback() }
      values = [.table(result)]
      durations[last] += start.duration(to: clock.now)
    case .writeCSV:
      // The writer's bytes of each morsel, the header only once: the bytes of the whole table.
      guard let write = evaluators[last] as? WriteCSVNode.Evaluator else { throw CSVMorsels.Fallback() }
      var written = 0
      let path = try write.file.write { emit in
        var headerBytes: Int?
        try morsels { stages in
          let table = stages.table
          let bytes = try write.writer.bytes(of: table)
          if let headerBytes {
            try emit(bytes[headerBytes...])
          } else {
            headerBytes = try write.writer.bytes(of: table.slice(0..<0)).count
            try emit(bytes[...])
          }
          written += table.rowCount
        }
      }
      values = [.string(path), .integer(Int64(written))]
    }
    // The reader's own time where it measured it (several morsels at once: the nodes' times
    // are summed over the threads too), else the time the other nodes left.
    let staged = durations.dropFirst().reduce(Duration.zero, +)
    durations[0] = reading ?? started.duration(to: clock.now) - staged
    return (values, durations)
  }
}

extension StreamedChain {
  /// Whether the chain's `groupBy` takes each morsel's rows listed by group (`GroupRows`): its
  /// sums stay on the chain's thread and its aggregates are `count()`, `sum` and `mean`. Then
  /// the last `filter`, when only `derive`s and `select`s follow it, is deferred: it hands on
  /// the rows it keeps and every row goes on through the stages after it (each row's result is
  /// its own, and a morsel where they fail runs them again on the kept rows alone), so its
  /// rows are never gathered; the `groupBy` reads only the kept ones.
  static func grouping(_ groupBy: GroupByNode.Evaluator?, _ evaluators: [any NodeEvaluator], _ rowLocal: Range<Int>)
    -> (listsGroups: Bool, deferred: Int?)
  {
    guard let groupBy, groupBy.workers - 1 <= 1, GroupByStream.takesGroupedRows(groupBy.aggregates) else {
      return (false, nil)
    }
    guard let filter = rowLocal.last(where: { evaluators[$0] is FilterNode.Evaluator }),
      ((filter + 1)..<rowLocal.upperBound).allSatisfy({
        evaluators[$0] is DeriveNode.Evaluator || evaluators[$0] is SelectNode.Evaluator
      })
    else { return (true, nil) }
    return (true, filter)
  }

  /// A row-local node's table on `table`.
  static func run(_ evaluator: any NodeEvaluator, on table: Table, limits: RunLimits) throws -> Table {
    guard case .table(let next) = try evaluator.evaluate([.table(table)], outputCount: 1)[0] else {
      throw CSVMorsels.Fallback()
    }
    if limits.longCellError(in: next) != nil { throw CSVMorsels.Fallback() }
    return next
  }
}

/// A morsel after a `StreamedChain`'s row-local nodes: the last one's table, the rows of the
/// reader's morsel and of each node's, and each node's time.
struct Stages: Sendable {
  var table: Table
  var rows: [Int]
  var durations: [Duration]
  /// Before a `groupBy`: the table's groups in the morsel (`GroupByStream.codes`), and the
  /// time they took (the `groupBy`'s).
  var codes: (local: [Int32], count: Int)?
  /// Before a `groupBy` whose sums stay on the chain's thread: the rows by group
  /// (`GroupRows`), only those a deferred `filter` kept (then `table` holds every row).
  var grouped: GroupRows?
  var groupTime = Duration.zero
}

/// The evaluator of a node of a `StreamedChain`.
struct StageEvaluator: NodeEvaluator {
  let chain: StreamedChain
  let stage: Int
  let base: any NodeEvaluator

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    try chain.evaluate(stage: stage, base: base, inputs, &outputs)
  }
}
