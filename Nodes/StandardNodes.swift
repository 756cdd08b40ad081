import FlowRuntime

extension NodeKindRegistry {
  /// The standard kinds of Reference.md, "Node kinds" and "Live nodes": the calculator (`number`, `add`, `subtract`,
  /// `multiply`, `divide`, `expression`), `group`, the pipeline vocabulary (text, files,
  /// tables), the live kinds (`clock`, `counter`, `accumulate`, `previous`, `lines`), and the
  /// kinds with lazy inputs (`if`, `switch`, `fallback`).
  public static var standard: NodeKindRegistry {
    NodeKindRegistry([
      NumberNode(), AddNode(), SubtractNode(), MultiplyNode(), DivideNode(), ExpressionNode(), GroupNode(),
      TextNode(), FormatNode(), ToNumberNode(),
      ReadTextNode(), ReadCSVNode(), ReadJSONNode(), ReadParquetNode(), WriteCSVNode(), WriteJSONNode(),
      WriteParquetNode(), WriteTextNode(),
      SelectNode(), SortNode(), GroupByNode(), JoinNode(), UnionNode(), DistinctNode(), LimitNode(), RowCountNode(),
      ColumnNode(), ReduceNode(),
      FilterNode(), DeriveNode(),
      WindowNode(), PivotNode(), UnpivotNode(),
      ClockNode(), CounterNode(), AccumulateNode(), PreviousNode(), LinesNode(),
      IfNode(), SwitchNode(), FallbackNode()
    ])
  }
}
