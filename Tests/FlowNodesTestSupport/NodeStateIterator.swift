import FlowRuntime

extension NodeValues.Iterator {
  /// The outputs of the next state, passing over `pending` ones (a live source's dependents
  /// are pending until its first emission, and `FlowEngine.values(of:)` starts with the
  /// current state); `nil` when the sequence ends or the next other state has no outputs.
  public mutating func nextOutputs() async -> [String: Value]? {
    while let state = await next() {
      if state.state == .pending { continue }
      return state.outputs
    }
    return nil
  }
}
