import FlowRuntime

extension NodeKindRegistry {
  /// The standard kinds of SPEC §5: `number`, `add`, `subtract`, `multiply`, `divide`,
  /// `expression`, `group`.
  public static var standard: NodeKindRegistry {
    NodeKindRegistry([
      NumberNode(), AddNode(), SubtractNode(), MultiplyNode(), DivideNode(), ExpressionNode(), GroupNode(),
    ])
  }
}
