import Foundation

/// Size accounting, eviction and `flow cache stats|clear`.
extension RunCache {
  /// What the cache holds.
  package struct Statistics: Sendable, Equatable {
    package var entries: Int
    package var bytes: Int
  }

  /// One entry file as listed.
  struct Listed {
    var name: String
    var bytes: Int
    var used: Int64
  }

  /// The entry files of the cache folder with their sizes and last use.
  ///
  /// - Complexity: O(*n*) for *n* files in the folder.
  func listed() -> [Listed] {
    let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { return [] }
    defer { close(folder) }
    return UnsafeFileSystem.entries(of: folder).compactMap { name in
      guard name.hasSuffix(Self.entrySuffix), !name.hasPrefix("."),
        let identity = FileIdentity(path: directory + "/" + name)
      else { return nil }
      return Listed(name: name, bytes: Int(identity.size), used: identity.modified)
    }
  }

  /// The number of entries and their bytes.
  package func statistics() -> Statistics {
    let entries = listed()
    return Statistics(entries: entries.count, bytes: entries.reduce(0) { $0 + $1.bytes })
  }

  /// Removes the least recently used entries until the rest fit `maximumBytes`. Safe while
  /// another run uses the cache: a removed entry is a miss for it, never a torn read.
  ///
  /// - Returns: the number of entries removed.
  /// - Complexity: O(*n* log *n*) for *n* entries.
  @discardableResult
  package func evict() -> Int {
    let entries = listed()
    var total = entries.reduce(0) { $0 + $1.bytes }
    guard total > maximumBytes else { return 0 }
    var removed = 0
    for entry in entries.sorted(by: { ($0.used, $0.name) < ($1.used, $1.name) }) where total > maximumBytes {
      if unlink(directory + "/" + entry.name) == 0 { removed += 1 }
      total -= entry.bytes
    }
    return removed
  }

  /// Removes every entry. Returns the number removed.
  @discardableResult
  package func clear() -> Int {
    var removed = 0
    for entry in listed() where unlink(directory + "/" + entry.name) == 0 { removed += 1 }
    return removed
  }
}
