import FlowRuntime

extension NodeKindRegistry {
  /// The standard kinds of SPEC §5 and §6: `number`, `add`, `subtract`, `multiply`, `divide`,
  /// `expression`, `group`, and the live kinds `clock`, `counter`, `accumulate`, `previous`,
  /// `lines`.
  public static var standard: NodeKindRegistry {
    NodeKindRegistry([
      NumberNode(), AddNode(), SubtractNode(), MultiplyNode(), DivideNode(), ExpressionNode(), GroupNode(),
      ClockNode(), CounterNode(), AccumulateNode(), PreviousNode(), LinesNode(),
    ])
  }
}
