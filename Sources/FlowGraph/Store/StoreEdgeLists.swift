/// The store's per-node edge lists in two flat arrays: for each node slot, its **inputs** (one
/// entry per input port: the slot of the edge into it, or -1) and its **outgoing** edge slots,
/// ascending. Each node owns a run of each array (`Run`: start, length, capacity).
///
/// A node's input run is as long as its signature has inputs; a signature with more inputs than
/// the run holds gets a fresh run at the end, and once such abandoned runs outweigh the live ones
/// (and a minimum) the inputs are rebuilt in slot order with exact capacities. An outgoing run
/// that is full moves to the end with twice its capacity (growing in place when it is last), so
/// what it leaves behind is less than its capacity: `outputs` stays under twice the capacities,
/// which are under twice the largest out-degree each node had, without ever being rebuilt. Every
/// edit is O(1) amortized plus the length of the run it touches.
///
/// Invariants: runs of one array never overlap and lie within it; `count <= capacity`;
/// `inputGarbage`/`outputGarbage` count the entries of the array that no run covers.
struct StoreEdgeLists: Sendable {
  /// A node's part of a flat array.
  struct Run: Sendable, Hashable {
    var start: Int32
    var count: Int32
    var capacity: Int32

    static let empty = Run(start: 0, count: 0, capacity: 0)
  }

  private(set) var inputRuns: [Run] = []
  private(set) var inputs: [Int32] = []
  private(set) var outputRuns: [Run] = []
  private(set) var outputs: [Int32] = []
  private(set) var inputGarbage = 0
  private(set) var outputGarbage = 0

  /// Garbage below this many entries is never collected (tests lower it).
  var garbageMinimum = 1_024

  init() {}

  /// Lists with exact capacities: node `i` has `inputCounts[i]` free inputs and room for
  /// `outDegrees[i]` outgoing edges.
  init(inputCounts: [Int], outDegrees: [Int32]) {
    inputRuns.reserveCapacity(inputCounts.count)
    outputRuns.reserveCapacity(inputCounts.count)
    var inputTotal = 0
    var outputTotal: Int32 = 0
    for node in inputCounts.indices {
      inputRuns.append(
        Run(start: Int32(inputTotal), count: Int32(inputCounts[node]), capacity: Int32(inputCounts[node])))
      inputTotal += inputCounts[node]
      outputRuns.append(Run(start: outputTotal, count: 0, capacity: outDegrees[node]))
      outputTotal += outDegrees[node]
    }
    inputs = [Int32](repeating: -1, count: inputTotal)
    outputs = [Int32](repeating: -1, count: Int(outputTotal))
  }

  var nodeCount: Int { inputRuns.count }

  /// Bytes held by the runs and the flat arrays.
  var allocatedBytes: Int {
    (inputRuns.capacity + outputRuns.capacity) * MemoryLayout<Run>.stride
      + (inputs.capacity + outputs.capacity) * MemoryLayout<Int32>.stride
  }

  // MARK: - Reading

  /// The edge slots into node `node`'s inputs (-1 for a free input), by port.
  func inputs(of node: Int32) -> ArraySlice<Int32> {
    let run = inputRuns[Int(node)]
    return inputs[Int(run.start)..<Int(run.start + run.count)]
  }

  /// The slot of the edge into input `port` of `node`, or -1.
  func input(of node: Int32, port: Int32) -> Int32 {
    let run = inputRuns[Int(node)]
    precondition(
      port >= 0 && port < run.count, "Internal inconsistency: input \(port) of node slot \(node) out of range")
    return inputs[Int(run.start + port)]
  }

  /// The slots of the edges out of `node`, ascending.
  func outputs(of node: Int32) -> ArraySlice<Int32> {
    let run = outputRuns[Int(node)]
    return outputs[Int(run.start)..<Int(run.start + run.count)]
  }

  // MARK: - Editing

  /// Adds a node slot with `inputCount` free inputs and no outgoing edges.
  mutating func appendNode(inputCount: Int) {
    inputRuns.append(.empty)
    outputRuns.append(.empty)
    setInputCount(of: Int32(inputRuns.count - 1), to: inputCount)
  }

  /// Gives node `node` `count` inputs, all free (its old entries are dropped).
  mutating func setInputCount(of node: Int32, to count: Int) {
    var run = inputRuns[Int(node)]
    if Int(run.capacity) < count {
      inputGarbage += Int(run.capacity)
      run = Run(start: Int32(inputs.count), count: 0, capacity: Int32(count))
      inputs.append(contentsOf: repeatElement(-1, count: count))
    }
    run.count = Int32(count)
    for place in Int(run.start)..<Int(run.start + run.capacity) { inputs[place] = -1 }
    inputRuns[Int(node)] = run
    if inputGarbage > max(garbageMinimum, inputs.count - inputGarbage) { compactInputs() }
  }

  /// Sets the edge into input `port` of `node` (-1 to free it).
  mutating func setInput(of node: Int32, port: Int32, to edge: Int32) {
    let run = inputRuns[Int(node)]
    precondition(
      port >= 0 && port < run.count, "Internal inconsistency: input \(port) of node slot \(node) out of range")
    inputs[Int(run.start + port)] = edge
  }

  /// Inserts `edge` into `node`'s ascending outgoing list.
  mutating func insertOutput(_ edge: Int32, of node: Int32) {
    var run = outputRuns[Int(node)]
    if run.count == run.capacity {
      let capacity = max(2, 2 * run.capacity)
      if Int(run.start + run.capacity) == outputs.count && run.capacity > 0 {
        // the last run grows in place
        outputs.append(contentsOf: repeatElement(-1, count: Int(capacity - run.capacity)))
      } else {
        let start = Int32(outputs.count)
        let moved = Array(outputs[Int(run.start)..<Int(run.start + run.count)])  // not a slice of the array it grows
        outputs.append(contentsOf: moved)
        outputs.append(contentsOf: repeatElement(-1, count: Int(capacity - run.count)))
        outputGarbage += Int(run.capacity)
        run.start = start
      }
      run.capacity = capacity
    }
    let place = Int(run.start) + Self.insertionIndex(of: edge, in: outputs[Int(run.start)..<Int(run.start + run.count)])
    var index = Int(run.start + run.count)
    while index > place {
      outputs[index] = outputs[index - 1]
      index -= 1
    }
    outputs[place] = edge
    run.count += 1
    outputRuns[Int(node)] = run
  }

  /// Removes `edge` from `node`'s outgoing list.
  mutating func removeOutput(_ edge: Int32, of node: Int32) {
    var run = outputRuns[Int(node)]
    let end = Int(run.start + run.count)
    let place = Int(run.start) + Self.insertionIndex(of: edge, in: outputs[Int(run.start)..<end])
    precondition(place < end && outputs[place] == edge, "Internal inconsistency: edge slot \(edge) not listed")
    for index in place..<(end - 1) { outputs[index] = outputs[index + 1] }
    outputs[end - 1] = -1
    run.count -= 1
    outputRuns[Int(node)] = run
  }

  /// The lists of the kept nodes, renumbered: `nodes` lists the old slots to keep in their new
  /// order, `edge` maps an old edge slot to its new one (ascending order is kept).
  func compacted(keeping nodes: [Int], edge: (Int32) -> Int32) -> StoreEdgeLists {
    var lists = StoreEdgeLists(
      inputCounts: nodes.map { Int(inputRuns[$0].count) },
      outDegrees: nodes.map { outputRuns[$0].count })
    for (new, old) in nodes.enumerated() {
      for (port, slot) in inputs(of: Int32(old)).enumerated() where slot >= 0 {
        lists.setInput(of: Int32(new), port: Int32(port), to: edge(slot))
      }
      var run = lists.outputRuns[new]
      for slot in outputs(of: Int32(old)) {
        lists.outputs[Int(run.start + run.count)] = edge(slot)
        run.count += 1
      }
      lists.outputRuns[new] = run
    }
    return lists
  }

  /// The first index of the ascending `list` whose element is not less than `slot`, counted
  /// from the list's start.
  static func insertionIndex(of slot: Int32, in list: ArraySlice<Int32>) -> Int {
    var low = list.startIndex
    var high = list.endIndex
    while low < high {
      let middle = (low + high) / 2
      if list[middle] < slot { low = middle + 1 } else { high = middle }
    }
    return low - list.startIndex
  }

  // MARK: - Garbage

  /// Rebuilds `inputs` in slot order with exact capacities.
  private mutating func compactInputs() {
    var packed: [Int32] = []
    packed.reserveCapacity(inputs.count - inputGarbage)
    for node in inputRuns.indices {
      let run = inputRuns[node]
      inputRuns[node] = Run(start: Int32(packed.count), count: run.count, capacity: run.count)
      packed.append(contentsOf: inputs[Int(run.start)..<Int(run.start + run.count)])
    }
    inputs = packed
    inputGarbage = 0
  }
}

extension StoreEdgeLists {
  /// Traps unless the runs are disjoint, within their arrays, no longer than their capacities,
  /// and the garbage counts match. Compiled only with `FLOW_INTERNAL_CHECKS`.
  ///
  /// - Complexity: O(*n* log *n*).
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(inputRuns.count == outputRuns.count, "Internal inconsistency: run arrays of different sizes")
    for (runs, array, garbage) in [(inputRuns, inputs.count, inputGarbage), (outputRuns, outputs.count, outputGarbage)]
    {
      var covered = 0
      var previousEnd: Int32 = 0
      for run in runs.filter({ $0.capacity > 0 }).sorted(by: { $0.start < $1.start }) {
        precondition(
          run.start >= previousEnd && Int(run.start + run.capacity) <= array,
          "Internal inconsistency: run \(run) overlaps another or leaves its array")
        previousEnd = run.start + run.capacity
        covered += Int(run.capacity)
      }
      for run in runs {
        precondition(run.count >= 0 && run.count <= run.capacity, "Internal inconsistency: run \(run) overfull")
      }
      precondition(
        covered + garbage == array, "Internal inconsistency: \(array - covered) entries uncovered, \(garbage) counted")
    }
    #endif
  }
}
