import FlowGraph
import Foundation

/// A folder of node outputs kept between processes: the run cache of `flow run --cache`, for
/// hosts that embed `FlowEngine` (`EngineOptions.cache`).
///
/// An engine given a cache serves each node whose key — its kind and kind version, params,
/// the product version and the keys of what feeds it; for a reader, the identity of the file
/// it reads — has an entry, and skips what only served nodes need; it keeps the outputs of
/// the nodes that ran (tables, writers' results, anything that took 1 ms or more) after each
/// pass. Several engines and `flow run` processes may share one folder at once
/// (`Documentation/RunCache.md`).
///
/// ```swift
/// var options = EngineOptions()
/// options.cache = try FlowCache(beside: document)       // .flow-cache beside the document
/// let engine = try FlowEngine(document: document, registry: .standard, options: options)
/// let report = await engine.evaluate()
/// print(report?.fromCache ?? [])                         // the nodes served from the folder
/// ```
///
/// Two caches are equal when they open the same folder with the same bound, verification and
/// product version (the warning handler is not compared).
public struct FlowCache: Sendable, Hashable {
  /// The default bound on the entries' bytes: 2 GiB.
  public static let defaultMaximumBytes = RunCache.defaultMaximumBytes
  /// The folder's name beside a document (`init(beside:)`), as `flow run` uses it.
  public static let defaultFolderName = RunCache.defaultFolderName
  /// The version of FlowRuntime, part of every key: a new release starts afresh.
  public static let productVersion = "0.7.0"

  package let store: RunCache

  /// Opens (making it if missing) the cache folder `directory`, which must lie inside one of
  /// `writableFolders` (its parent folder must exist).
  ///
  /// - Parameters:
  ///   - maximumBytes: the most the entries may take; least recently used go first.
  ///   - verifiesReads: readers' keys also hold a digest of the bytes they read, not only the
  ///     file's identity (device, inode, size, modification time).
  ///   - productVersion: part of every key; a host whose own kinds change behaviour without a
  ///     new `kindVersion` passes its own version here.
  ///   - warn: where warnings go (an entry ignored because it is damaged); standard error by
  ///     default.
  /// - Throws: `FileAccessError` naming the folder when it lies outside `writableFolders`, is a
  ///   link, or cannot be made.
  public init(
    directory: String, writableFolders: [String], maximumBytes: Int = FlowCache.defaultMaximumBytes,
    verifiesReads: Bool = false, productVersion: String = FlowCache.productVersion,
    warn: @escaping @Sendable (String) -> Void = FlowCache.warnOnStandardError
  ) throws(FileAccessError) {
    guard maximumBytes > 0 else {
      throw FileAccessError("the cache \(directory) needs a bound above 0 bytes, got \(maximumBytes)")
    }
    store = try RunCache(
      directory: directory, writableRoots: writableFolders, maximumBytes: maximumBytes,
      productVersion: productVersion, verifiesReads: verifiesReads, warn: warn)
  }

  /// Opens the cache `.flow-cache` beside a document read from a file (`FlowDocument.folder`),
  /// as `flow run --cache .flow-cache` does.
  ///
  /// - Throws: `FileAccessError` when the document was not read from a file, or its folder
  ///   cannot hold the cache.
  public init(
    beside document: FlowDocument, maximumBytes: Int = FlowCache.defaultMaximumBytes, verifiesReads: Bool = false,
    warn: @escaping @Sendable (String) -> Void = FlowCache.warnOnStandardError
  ) throws(FileAccessError) {
    guard let folder = document.folder else {
      throw FileAccessError(
        "the document was not read from a file: name the cache's folder (FlowCache(directory:writableFolders:))")
    }
    try self.init(
      directory: folder + "/" + Self.defaultFolderName, writableFolders: [folder], maximumBytes: maximumBytes,
      verifiesReads: verifiesReads, warn: warn)
  }

  /// The canonical absolute path of the cache's folder.
  public var directory: String { store.directory }
  /// The most bytes the entries may take.
  public var maximumBytes: Int { store.maximumBytes }
  /// Whether readers' keys hold a digest of the bytes they read.
  public var verifiesReads: Bool { store.verifiesReads }

  /// How many entries the folder holds and their bytes.
  ///
  /// - Complexity: O(*n*) for *n* files in the folder.
  public func statistics() -> (entries: Int, bytes: Int) {
    let statistics = store.statistics()
    return (statistics.entries, statistics.bytes)
  }

  /// Removes every entry (safe while others use the folder: a removed entry is a miss).
  ///
  /// - Returns: the number of entries removed.
  @discardableResult
  public func removeAll() -> Int { store.clear() }

  /// Writes `message` and a newline to standard error.
  public static let warnOnStandardError: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  public static func == (left: FlowCache, right: FlowCache) -> Bool {
    left.directory == right.directory && left.maximumBytes == right.maximumBytes
      && left.verifiesReads == right.verifiesReads
      && left.store.productVersion == right.store.productVersion
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(directory)
    hasher.combine(maximumBytes)
  }
}
