/// The evaluator of a kind with lazy inputs (`InputPort.isLazy`): it evaluates in two steps.
///
/// First the engine brings the node's eager inputs up to date and asks `neededInputs(given:)`
/// which lazy inputs the node needs; it brings only those up to date (running what they depend
/// on, each node at most once per pass) and asks again with their values, until the answer asks
/// for nothing new. Then it calls `evaluate` with the eager inputs and the needed lazy ones; a
/// lazy input the last answer did not name reads `null` there. Whatever stands only behind lazy
/// inputs no node needs does not run, cannot fail the pass, and keeps its last value, marked
/// not needed, until a later pass needs it again.
///
/// A needed lazy input that failed fails the node with that failure's root, as an eager input
/// does. A lazy input the node asked for, found failed, and then left out of its last answer is
/// *caught* (`fallback`): the node does not fail and the report lists the failure as caught.
public protocol LazyNodeEvaluator: NodeEvaluator {
  /// The lazy inputs the node needs, by port index, given its eager inputs and the lazy inputs
  /// brought up to date so far. Called again after each new input arrives; it must depend only
  /// on what `inputs` shows, and the last answer names the inputs `evaluate` reads.
  ///
  /// - Parameter inputs: the eager inputs' values and the lazy inputs brought up so far.
  /// - Returns: port indices of lazy inputs; other indices are ignored.
  /// - Throws: any error; the node then fails with its description.
  func neededInputs(given inputs: LazyInputs) throws -> [Int]
}
