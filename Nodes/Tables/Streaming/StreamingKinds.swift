import FlowRuntime

/// A kind a streamed chain passes morsels through (`StreamingPlan`): its one table input's
/// rows become its output each on its own, in order, so its outputs on the morsels,
/// concatenated, are its output on the whole table (`filter`, `derive`, `select`).
protocol RowLocalKind: NodeKind {}

/// A kind a streamed chain starts at: a reader whose evaluator is a `MorselSource`
/// (`readCSV`, `readParquet`).
protocol MorselSourceKind: NodeKind {}
