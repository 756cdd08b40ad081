/// What a pass touches of one node, packed in 48 bytes (one record per node, in
/// `UnsafeGraphStorage.records`): flags, where its inputs, outputs and successors are, its
/// configuration, the stamps of the current pass, its failure and how often it ran.
struct NodeRecord: BitwiseCopyable {
  /// `EvaluationGraph.Flags` raw value.
  var flags: UInt8
  /// `ScalarShape` raw value: how the typed fast path calls the node (0: it does not).
  var shape: UInt8
  /// Input `k` reads slot `inputSources[inputStart + k]`.
  var inputStart: UInt32
  var inputCount: UInt32
  /// Output `k` is slot `outputStart + k`.
  var outputStart: UInt32
  var outputCount: UInt32
  /// The nodes fed by this one, once per edge: `successors[successorStart ..< + successorCount]`.
  var successorStart: UInt32
  var successorCount: UInt32
  /// Index into `EvaluationGraph.configurations`.
  var configuration: UInt32
  /// `queuedStamp == pass` iff the node was queued in the current pass.
  var queuedStamp: UInt32
  /// `changedStamp == pass` iff its outputs or failure changed in pass `pass`.
  var changedStamp: UInt32
  /// -1 if the node is fine, else the node where its failure started.
  var failure: Int32
  /// How often its evaluation ran since the evaluator was made.
  var evaluationCount: UInt32

  init(
    flags: UInt8, shape: UInt8, inputStart: UInt32, inputCount: UInt32, outputStart: UInt32, outputCount: UInt32,
    successorStart: UInt32, configuration: UInt32
  ) {
    self.flags = flags
    self.shape = shape
    self.inputStart = inputStart
    self.inputCount = inputCount
    self.outputStart = outputStart
    self.outputCount = outputCount
    self.successorStart = successorStart
    successorCount = 0
    self.configuration = configuration
    queuedStamp = 0
    changedStamp = 0
    failure = -1
    evaluationCount = 0
  }
}

/// How the typed fast path calls a node (`ScalarEvaluation`), as stored in `NodeRecord.shape`.
enum ScalarShape {
  static let none: UInt8 = 0
  static let number1: UInt8 = 1
  static let number2: UInt8 = 2
  static let integer1: UInt8 = 3
  static let integer2: UInt8 = 4
  static let integerFold: UInt8 = 5
  static let numberFold: UInt8 = 6
  /// `ScalarEvaluation.forward` with one output: the input's number, integer or bool, as is.
  static let forward: UInt8 = 7
  /// `ScalarEvaluation.forward` without outputs: runs, and is cut off.
  static let sink: UInt8 = 8

  /// The shape for a node with `inputs` inputs and `outputs` outputs offering `evaluation`, or
  /// `none` when they do not fit (the node then always takes the boxed path).
  static func of(_ evaluation: ScalarEvaluation?, inputs: Int, outputs: Int) -> UInt8 {
    guard let evaluation else { return none }
    if case .forward = evaluation.body {
      guard inputs == 1 else { return none }
      return outputs == 1 ? forward : outputs == 0 ? sink : none
    }
    guard outputs == 1 else { return none }
    if let arity = evaluation.arity, arity != inputs { return none }
    switch evaluation.body {
    case .number1: return number1
    case .number2: return number2
    case .integer1: return integer1
    case .integer2: return integer2
    case .integerFold: return integerFold
    case .numberFold: return numberFold
    case .forward: return none
    }
  }
}
