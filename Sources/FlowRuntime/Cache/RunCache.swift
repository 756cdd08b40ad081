import Foundation

/// The run cache's store (`flow run --cache DIR`): one file per node key in one folder,
/// written atomically, read whole and checked, evicted least recently used first.
///
/// Entries are `<64 hex digits of the key>.flowcache` files in `directory` (format:
/// `CacheEntryCodec`). Writes go through the file-access policy's walk into that folder alone
/// and through `AtomicFileWriter` (temporary file, rename; streamed through one buffer, not
/// flushed to disk: an entry torn by a power loss fails its checksum), so a reader — another
/// run on the same cache included — sees a whole entry or none; there is no shared index to tear.
/// Recency is the entry's modification time, touched on each hit. An entry that is truncated,
/// fails its checksum or is of another format version is reported through `warn`, removed and
/// treated as missing (the run recomputes and replaces it).
///
/// Invariant: nothing is written outside `directory`, which the opener checked lies inside a
/// folder the run may write.
package struct RunCache: Sendable {
  /// The suffix of entry files.
  package static let entrySuffix = ".flowcache"
  /// The default bound on the entries' bytes (`--cache-max`): 2 GiB.
  package static let defaultMaximumBytes = 2 << 30
  /// The folder's name when the host picks the default place: beside the document.
  package static let defaultFolderName = ".flow-cache"

  /// The canonical absolute path of the cache's folder.
  package let directory: String
  /// The most bytes the entries may take after a run (least recently used go first).
  package let maximumBytes: Int
  /// The version of the product, part of every key (a new release starts afresh).
  package let productVersion: String
  /// Whether readers' keys include a digest of the file's bytes (`--cache-verify`), not only
  /// its identity.
  package let verifiesReads: Bool
  /// Where warnings go (a corrupt entry ignored).
  package let warn: @Sendable (String) -> Void
  let policy: FileAccessPolicy

  /// Opens (making it if missing) the cache folder `directory`, which must lie inside one of
  /// `writableRoots`.
  ///
  /// - Throws: `FileAccessError` naming the folder when it lies outside the writable folders
  ///   or cannot be made.
  package init(
    directory: String, writableRoots: [String], maximumBytes: Int = RunCache.defaultMaximumBytes,
    productVersion: String, verifiesReads: Bool = false,
    warn: @escaping @Sendable (String) -> Void
  ) throws(FileAccessError) {
    let absolute = (FileAccessPolicy.absolutePath(directory) as NSString).standardizingPath
    let parent = (absolute as NSString).deletingLastPathComponent
    let name = (absolute as NSString).lastPathComponent
    guard !name.isEmpty, name != "/", let realParent = FileAccessPolicy.realPath(parent) else {
      throw FileAccessError("cannot use \(directory) as the cache: its folder \(parent) does not exist")
    }
    let roots = writableRoots.compactMap { FileAccessPolicy.realPath(FileAccessPolicy.absolutePath($0)) }
    let candidate = FileAccessPolicy.components(realParent) + [name]
    guard roots.contains(where: { UnsafePathWalk.isPrefix(FileAccessPolicy.components($0), of: candidate) }) else {
      throw FileAccessError(
        "the cache \(directory) is outside the folders the run may write (--allow-write DIR allows a folder)")
    }
    let path = realParent == "/" ? "/" + name : realParent + "/" + name
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw FileAccessError("cannot make the cache folder \(path): \(String(cString: strerror(errno)))")
    }
    // The folder itself must not lead elsewhere (a symlink planted in its place).
    guard FileAccessPolicy.realPath(path) == path else {
      throw FileAccessError("the cache \(directory) is outside the folders the run may write (it is a link)")
    }
    self.directory = path
    self.maximumBytes = maximumBytes
    self.productVersion = productVersion
    self.verifiesReads = verifiesReads
    self.warn = warn
    policy = FileAccessPolicy(readableRoots: [], writableRoots: [path])
  }

  func fileName(_ key: CacheKey) -> String { key.hex + Self.entrySuffix }

  /// The entry stored under `key`, or `nil`. A hit marks the entry recently used; an entry
  /// that fails its checks is reported, removed and `nil`.
  package func load(_ key: CacheKey) -> CacheEntry? {
    let name = fileName(key)
    guard let file = try? policy.open(name, relativeTo: directory) else { return nil }
    let bytes: [UInt8]
    do { bytes = try FileContents.read(file) } catch { return nil }
    do {
      let entry = try CacheEntryCodec.decode(bytes, key: key)
      _ = futimens(file.descriptor, nil)  // recency for the LRU
      return entry
    } catch {
      warn(
        "flow: warning: cache entry \(name) in \(directory) ignored (\(error.reason)); it is recomputed and replaced")
      unlink(directory + "/" + name)
      return nil
    }
  }

  /// Whether an entry is stored under `key` (not read or checked: `load` does that).
  package func contains(_ key: CacheKey) -> Bool { access(directory + "/" + fileName(key), F_OK) == 0 }

  /// Stores `entry` under `key`, atomically. Returns the bytes written (0 when the value is
  /// not kept: nested too deep, or larger than the whole cache).
  ///
  /// - Throws: `FileAccessError` when the folder cannot be written.
  @discardableResult
  package func store(_ entry: CacheEntry, under key: CacheKey) throws -> Int {
    guard let size = CacheEntryCodec.encodedSize(entry), size <= maximumBytes else { return 0 }
    let target = try policy.target(fileName(key), relativeTo: directory)
    // Whole chunks bypass the page cache where the file system allows it: an entry's bytes are
    // not copied into the kernel's memory (the cost of keeping a large table).
    try AtomicFileWriter().write(to: target, durable: false, bypassesPageCache: true) { emit in
      try withoutActuallyEscaping(emit) { try CacheEntryCodec.encode(entry, key: key, emit: $0) }
    }
    return size
  }
}
