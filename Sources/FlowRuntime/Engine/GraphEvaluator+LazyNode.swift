// A lazy node's two steps within a lazy pass (`GraphEvaluator+LazyPass.swift`): the first asks
// the kind which lazy inputs it needs and brings them up; the second evaluates the node if it
// must run. "How a pass handles a lazy node" in `Documentation/Evaluation.md` explains them.

import FlowGraph

extension GraphEvaluator {
  /// Both steps of the lazy node `node`, whose eager inputs are final in this pass.
  ///
  /// The node must run when it was dirty or missed a change, or when an eager input or a lazy
  /// input it asked for (in any round) changed in this pass. A failed eager input fails it
  /// without asking; a failed lazy input of its last answer fails it with that root; one it
  /// asked for and then left out is caught.
  mutating func lazyNodeSteps(_ node: Int32, scratch: inout EvaluationScratch, log: inout PassLog) {
    let index = Int(node)
    let lazyPorts = graph.configuration(of: node).lazyPorts ?? []
    let inputCount = Int(graph.inputCount(of: node))
    var sources = [Int32](repeating: -1, count: inputCount)
    var entries = [LazyInputs.Entry?](repeating: nil, count: inputCount)
    var mustRun = lazy.dirtyStamp[index] == pass || lazy.missed[index]
    var eagerRoot: Int32 = -1
    for port in 0..<inputCount {
      let source = graph.sourceNode(of: node, input: Int32(port))
      sources[port] = source
      let isLazy = port < lazyPorts.count && lazyPorts[port]
      if source < 0 {
        entries[port] = .value(graph.value(inSlot: Int(graph.inputSlot(of: node, input: Int32(port)))))
        continue
      }
      guard !isLazy else { continue }
      if graph.record(source).changedStamp == pass { mustRun = true }
      if eagerRoot < 0 { eagerRoot = graph.record(source).failure }
      entries[port] = .value(graph.value(inSlot: Int(graph.inputSlot(of: node, input: Int32(port)))))
    }
    if eagerRoot >= 0 {
      lazy.needs[node] = []
      guard mustRun else { return }
      lazy.missed[index] = false
      if recordFailure(node, root: eagerRoot, message: nil, log: &log) { noteLazyChange(of: node) }
      return
    }
    // The first step: ask, bring up what is asked for, ask again until nothing new is asked.
    var asked = [Bool](repeating: false, count: inputCount)
    var answer = [Bool](repeating: false, count: inputCount)
    var thrown: (any Error)?
    let evaluator = graph.evaluator(of: node) as? any LazyNodeEvaluator
    let connected = sources.map { $0 >= 0 }
    while let evaluator {
      let ports: [Int]
      do { ports = try evaluator.neededInputs(given: LazyInputs(entries: entries, connected: connected)) } catch {
        thrown = error
        break
      }
      answer = [Bool](repeating: false, count: inputCount)
      var grew = false
      for port in ports where port >= 0 && port < inputCount && port < lazyPorts.count && lazyPorts[port] {
        answer[port] = true
        asked[port] = true
        guard entries[port] == nil else { continue }
        let source = sources[port]
        bringUp(source, scratch: &scratch, log: &log)
        let root = graph.record(source).failure
        entries[port] =
          root >= 0 ? .failed(failureDescription(of: source) ?? "failed") : .value(outputValue(feeding: node, port))
        if graph.record(source).changedStamp == pass { mustRun = true }
        grew = true
      }
      if !grew { break }
    }
    lazy.needs[node] = asked
    for port in 0..<inputCount where asked[port] && !answer[port] {
      if case .failed(let message)? = entries[port] { log.caught[node] = message }
    }
    guard mustRun else { return }
    lazy.missed[index] = false
    if let thrown {
      log.ran.append(node)
      graph.storage.records[index].evaluationCount &+= 1
      if recordFailure(node, root: node, message: Self.message(of: thrown), log: &log) { noteLazyChange(of: node) }
      return
    }
    for port in 0..<inputCount where answer[port] && sources[port] >= 0 {
      let root = graph.record(sources[port]).failure
      guard root >= 0 else { continue }
      if recordFailure(node, root: root, message: nil, log: &log) { noteLazyChange(of: node) }
      return
    }
    if evaluateLazyNode(node, answer: answer, lazyPorts: lazyPorts, scratch: &scratch, log: &log) {
      noteLazyChange(of: node)
    }
  }

  /// The value input `port` of `node` reads now.
  func outputValue(feeding node: Int32, _ port: Int) -> Value {
    graph.value(inSlot: Int(graph.inputSlot(of: node, input: Int32(port))))
  }

  /// The second step: evaluates `node` with its eager inputs and the lazy inputs of its last
  /// answer (the others read `null`). Returns whether its outputs or failure changed.
  mutating func evaluateLazyNode(
    _ node: Int32, answer: [Bool], lazyPorts: [Bool], scratch: inout EvaluationScratch,
    log: inout PassLog
  ) -> Bool {
    gatherInputs(of: node, into: &scratch)
    for port in scratch.inputs.indices where port < lazyPorts.count && lazyPorts[port] && !answer[port] {
      scratch.inputs[port] = .null
    }
    var thrown: (any Error)?
    let evaluator = graph.evaluator(of: node)
    let clock = ContinuousClock()
    let start = clock.now
    do { try evaluator.evaluate(NodeInputs(scratch.inputs), &scratch.outputs) } catch { thrown = error }
    if options.timesEveryNode {
      log.durations[node] = clock.now - start
      log.starts[node] = start - log.began
    }
    log.ran.append(node)
    graph.storage.records[Int(node)].evaluationCount &+= 1
    if let thrown { return recordFailure(node, root: node, message: Self.message(of: thrown), log: &log) }
    let expensive = graph.flags(of: node).contains(.expensive)
    if let violation = limits.violation(in: scratch.outputs.values, expensive: expensive) {
      return recordFailure(node, root: node, message: violation.message, log: &log)
    }
    return storeOutputs(of: node, scratch.outputs.values, log: &log)
  }
}
