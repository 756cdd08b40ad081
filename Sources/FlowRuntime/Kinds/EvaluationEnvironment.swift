/// What a host tells node kinds about where they run: the folder relative paths resolve
/// against, which folders file nodes may read and write, the run's limits, how CSV files are
/// read (`CSVReadStrategy`) and how many threads large tables use (`workers`).
///
/// The host sets it on the registry (`NodeKindRegistry.environment`) before configuring nodes;
/// kinds receive it in `NodeParameters.environment` at `instantiate`. The default has no
/// document folder (paths resolve against the working directory) and allows the working
/// directory's tree only.
public struct EvaluationEnvironment: Sendable {
  /// The folder of the document being run (absolute), against which relative paths resolve.
  public var documentFolder: String
  /// Which folders file nodes may read and write.
  public var fileAccess: FileAccessPolicy
  /// Where file nodes report progress (rows read), if the host watches.
  public var progress: PassProgress?
  /// The limits of the run (rows, string bytes, memory): kinds read them at `instantiate` to
  /// check what they build, the evaluator checks every node's outputs against them.
  public var limits: RunLimits
  /// Whether writer kinds write their files (default `true`). `flow render --values` sets it to
  /// `false`: a writer then touches no file, and its `path` output is the text
  /// `EvaluationEnvironment.notWritten`.
  public var writesFiles = true
  /// How `readCSV` reads (default: every faster path on; the table is the same either way).
  public var csvRead = CSVReadStrategy()
  /// The most threads a node's work on a large table uses (at least 1): the table kernels,
  /// `Table.gathering`, the CSV and Parquet readers and writers. `flow run --threads N` sets
  /// it; the default is `TableParallelism.defaultWorkers` (the active processors). Results
  /// never depend on it, only the time they take.
  public var workers: Int {
    get { workerCount }
    set { workerCount = max(1, newValue) }
  }
  private var workerCount = TableParallelism.defaultWorkers
  /// Test seam (child-process tests that signal `flow` mid-write; the debug build's hidden
  /// `flow run --test-write-barrier DIR`): a folder where each file node's write, its bytes
  /// flushed, creates `ready` and waits before its rename until `go` exists or the pass is
  /// asked to stop (`AtomicFileWriter.init(_:)`). `nil`: writes never wait.
  package var writeBarrier: String?

  /// A writer's `path` output when `writesFiles` is `false`.
  public static let notWritten = "not written (render)"

  /// An environment for a document in `documentFolder` (default: the working directory)
  /// whose file nodes may use what `fileAccess` allows (default: that folder's tree only),
  /// within `limits` (default: `RunLimits()`), reading CSV files with `csvRead` (default: every
  /// faster path on), on up to `workers` threads (default: the active processors).
  public init(
    documentFolder: String? = nil, fileAccess: FileAccessPolicy? = nil, progress: PassProgress? = nil,
    limits: RunLimits = RunLimits(), csvRead: CSVReadStrategy = CSVReadStrategy(),
    workers: Int = TableParallelism.defaultWorkers
  ) {
    self.limits = limits
    self.csvRead = csvRead
    self.workerCount = max(1, workers)
    let folder = documentFolder ?? FileAccessPolicy.currentDirectory
    self.documentFolder = folder
    self.fileAccess = fileAccess ?? FileAccessPolicy(readableRoots: [folder], writableRoots: [folder])
    self.progress = progress
  }
}
