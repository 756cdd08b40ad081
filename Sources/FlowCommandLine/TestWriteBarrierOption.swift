import FlowRuntime

/// `flow run --test-write-barrier DIR`: a test seam of debug builds only, hidden from the help
/// and never for users. The child-process tests that signal `flow run` mid-write
/// (`RunInterruptionTests`) pass it: each file node's write, its bytes flushed, creates
/// `DIR/ready` and waits before its rename until `DIR/go` exists or the run is asked to stop
/// (`EvaluationEnvironment.writeBarrier`). A release build does not know the option.
enum TestWriteBarrierOption {
  #if FLOW_INTERNAL_CHECKS
  static let specs = [
    OptionSpec(
      name: "--test-write-barrier", arity: .single, valueName: "DIR",
      help: "test seam: hold each file write before its rename until DIR/go exists", isHidden: true)
  ]
  #else
  static let specs: [OptionSpec] = []
  #endif

  /// `environment` with the barrier the arguments ask for (debug builds), else unchanged.
  static func apply(_ arguments: ParsedArguments, to environment: inout EvaluationEnvironment) {
    #if FLOW_INTERNAL_CHECKS
    if let folder = arguments.value("--test-write-barrier"), !folder.isEmpty { environment.writeBarrier = folder }
    #endif
  }
}
