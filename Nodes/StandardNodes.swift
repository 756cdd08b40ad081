import FlowRuntime

extension NodeKindRegistry {
  /// The standard kinds of SPEC §5: `number`, `add`, `subtract`, `multiply`, `divide`,
  /// `expression`, `group`; of the pipeline vocabulary: `filter`, `derive`.
  public static var standard: NodeKindRegistry {
    NodeKindRegistry([
      NumberNode(), AddNode(), SubtractNode(), MultiplyNode(), DivideNode(), ExpressionNode(), GroupNode(),
      FilterNode(), DeriveNode(),
    ])
  }
}
