import Foundation

/// The race-free walk behind `FileAccessPolicy` (Reference.md, "Files and limits"): a path is resolved
/// one component at a time from an opened allowed folder, with `openat(…, O_NOFOLLOW)`, so what
/// is checked is what is opened.
///
/// Invariants:
/// - `descriptors` holds one open folder descriptor per physical step below the allowed folder
///   the walk entered (`descriptors[0]` is that folder); every descriptor is closed exactly once,
///   by `popDescriptor`, `closeAll` or the owner of the result (`CheckedFile`, `CheckedTarget`).
/// - The walk never asks the kernel to follow a symlink: each one is read with `readlinkat`,
///   counted (at most `maximumLinks`), and its target walked component by component under the
///   same checks.
/// - `position` is the canonical absolute path of where the walk stands (symlinks already
///   expanded); a position with no descriptor is either above an allowed folder (on the way to
///   one) or below a component that does not exist (`missingDepth > 0`): nothing there is ever
///   opened, and the walk only returns a result from a position it holds a descriptor for.
/// - Buffers passed to C (`readlinkat`) are local and sized; no pointer outlives its call.
struct UnsafePathWalk {
  /// What the caller wants at the end of the path.
  enum Goal: Equatable {
    case readFile
    /// A file to write; with `createFolders`, missing folders on the way are made (checked
    /// like any other component, inside the allowed folders only).
    case writeFile(createFolders: Bool)

    var isWrite: Bool { self != .readFile }
  }

  /// The allowed folders (canonical components) the walk may stand in.
  let roots: [[String]]
  /// The document's folder (canonical components): trusted, passed through on the way in.
  let start: [String]
  /// The path as the document wrote it, for messages.
  let written: String
  let access: FileAccessPolicy.Access
  /// Test seam: called before each physical step with the position and the next component.
  let beforeStep: ((String, String) -> Void)?

  static let maximumLinks = 40
  static let maximumComponents = 4_096
  /// Longer than any file system's name limit (255 on most): refused before any work on it.
  static let maximumNameBytes = 1_024

  private var position: [String] = []
  private var descriptors: [Int32] = []
  private var missingDepth = 0
  private var links = 0
  private var madeFolders = 0

  init(
    roots: [[String]], start: [String], written: String, access: FileAccessPolicy.Access,
    beforeStep: ((String, String) -> Void)?
  ) {
    self.roots = roots
    self.start = start
    self.written = written
    self.access = access
    self.beforeStep = beforeStep
  }

  /// The canonical path the walk stands at.
  var path: String { "/" + position.joined(separator: "/") }

  /// Walks `components` (absolute, from `/`) and opens what `goal` asks for.
  mutating func run(_ components: [String], goal: Goal) throws(FileAccessError) -> CheckedEnd {
    var pending = components.reversed().filter { $0 != "" && $0 != "." }
    guard pending.count <= Self.maximumComponents else { throw FileAccessError("invalid path '\(written)': too long") }
    defer { closeAll() }
    try enterRootIfAt()
    while let component = pending.popLast() {
      let isLast = pending.isEmpty
      switch component {
      case "..": try stepUp()
      default:
        if let end = try step(into: component, isLast: isLast, goal: goal, pending: &pending) { return end }
      }
    }
    // The path ended on a folder (`.`, `..`, `a/`): no file to read or write there.
    guard isInsideRoot(position) else { throw outside }
    throw FileAccessError("cannot \(access == .read ? "read" : "write") \(path): it is a folder")
  }

  private var outside: FileAccessError { FileAccessError.outside(written, access: access) }

  // MARK: Steps

  private mutating func stepUp() throws(FileAccessError) {
    guard !position.isEmpty else { return }
    position.removeLast()
    if missingDepth > 0 { missingDepth -= 1; return }
    if !descriptors.isEmpty { popDescriptor() }
    try enterRootIfAt()
  }

  /// One named component: checked against the policy, then looked at through the folder
  /// descriptor without following links. Returns the end when the component is the file.
  private mutating func step(
    into name: String, isLast: Bool, goal: Goal,
    pending: inout [String]
  ) throws(FileAccessError) -> CheckedEnd? {
    guard name.utf8.count <= Self.maximumNameBytes, !name.utf8.contains(0) else {
      throw FileAccessError("invalid path '\(written)': a name longer than \(Self.maximumNameBytes) bytes")
    }
    position.append(name)
    guard permitted(position) else { throw outside }
    if missingDepth > 0 {
      missingDepth += 1
      if isLast { throw missing(isLast: true) }
      return nil
    }
    if descriptors.isEmpty {  // on the way to an allowed folder
      try enterRootIfAt()
      if isLast && descriptors.isEmpty { throw outside }
      return nil
    }
    let folder = descriptors[descriptors.count - 1]
    beforeStep?("/" + position.dropLast().joined(separator: "/"), name)
    var info = stat()
    if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
      let code = errno
      guard code == ENOENT else { throw failure(code) }
      if isLast {
        guard goal.isWrite else { throw missing(isLast: true) }
        return .target(CheckedTarget(folder: takeLastDescriptor(), name: name, path: path, mode: nil))
      }
      if goal == .writeFile(createFolders: true) && !pending.contains("..") {
        // A refused write leaves nothing behind: the rest of the path (no `..`, and the
        // folders made here hold no links) must be permitted before the first folder is made.
        var rest = position
        for next in pending.reversed() {
          rest.append(next)
          guard permitted(rest) else { throw outside }
        }
        // Made where the walk stands, then entered like any folder (a race retries the step).
        guard mkdirat(folder, name, 0o777) == 0 || errno == EEXIST else { throw failure(errno) }
        madeFolders += 1
        guard madeFolders <= Self.maximumComponents else {
          throw FileAccessError("cannot write \(path): it keeps changing")
        }
        position.removeLast()
        pending.append(name)
        return nil
      }
      missingDepth = 1
      return nil
    }
    switch info.st_mode & S_IFMT {
    case S_IFLNK:
      try expandLink(folder, name, into: &pending)
      return nil
    case S_IFDIR:
      let opened = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      if opened < 0 {
        let code = errno
        // Swapped for a link (or something else) since `fstatat`: look again.
        if code == ELOOP || code == ENOTDIR { return try retry(name, into: &pending) }
        throw failure(code)
      }
      descriptors.append(opened)
      return nil
    case S_IFREG:
      guard isLast else { throw FileAccessError("cannot \(verb) \(path): \(name) is not a folder") }
      return try openFile(folder, name, info: info, goal: goal, pending: &pending)
    default:
      throw FileAccessError("cannot \(verb) \(path): not a regular file (\(Self.kindName(info.st_mode)))")
    }
  }

  private mutating func openFile(
    _ folder: Int32, _ name: String, info: stat, goal: Goal,
    pending: inout [String]
  ) throws(FileAccessError) -> CheckedEnd? {
    if goal.isWrite {
      return .target(CheckedTarget(folder: takeLastDescriptor(), name: name, path: path, mode: info.st_mode & 0o7777))
    }
    let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if file < 0 {
      let code = errno
      if code == ELOOP { return try retry(name, into: &pending) }
      throw failure(code)
    }
    var opened = stat()
    guard fstat(file, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
      close(file)
      throw FileAccessError("cannot read \(path): not a regular file (\(Self.kindName(opened.st_mode)))")
    }
    // Back to blocking reads (a regular file never blocks; the flag only kept `open` from
    // waiting on a FIFO swapped in).
    _ = fcntl(file, F_SETFL, fcntl(file, F_GETFL) & ~O_NONBLOCK)
    return .file(CheckedFile(descriptor: file, path: path))
  }

  /// The component changed between two looks (a race): walk it again, a bounded number of times.
  private mutating func retry(_ name: String, into pending: inout [String]) throws(FileAccessError) -> CheckedEnd? {
    links += 1
    guard links <= Self.maximumLinks else { throw FileAccessError("cannot \(verb) \(path): it keeps changing") }
    position.removeLast()
    pending.append(name)
    return nil
  }

  /// Replaces the link at the end of `position` by its target's components, to be walked.
  private mutating func expandLink(_ folder: Int32, _ name: String, into pending: inout [String])
    throws(FileAccessError)
  {
    links += 1
    guard links <= Self.maximumLinks else {
      throw FileAccessError("cannot \(verb) \(path): too many levels of symbolic links")
    }
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { raw in
      raw.withMemoryRebound(to: CChar.self) { readlinkat(folder, name, $0.baseAddress!, $0.count - 1) }
    }
    guard count >= 0 else {
      let code = errno
      if code == EINVAL { position.removeLast(); pending.append(name); return }  // no longer a link: look again
      throw failure(code)
    }
    let target = String(decoding: buffer[..<count], as: UTF8.self)
    guard !target.isEmpty else { throw FileAccessError("cannot \(verb) \(path): an empty symbolic link") }
    position.removeLast()
    let parts = target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    guard pending.count + parts.count <= Self.maximumComponents else {
      throw FileAccessError("invalid path '\(written)': too long")
    }
    pending.append(contentsOf: parts.reversed().filter { $0 != "." })
    if target.hasPrefix("/") {
      closeAll()
      position = []
      missingDepth = 0
      try enterRootIfAt()
    }
  }

  // MARK: Policy

  /// Whether the walk may stand at `candidate`: inside an allowed folder with no hidden
  /// component below it, on the way to an allowed folder, or on the way to the document.
  func permitted(_ candidate: [String]) -> Bool {
    Self.isPrefix(candidate, of: start) || roots.contains { Self.isPrefix(candidate, of: $0) }
      || isInsideRoot(candidate)
  }

  /// Whether `candidate` lies in an allowed folder's tree with no hidden component below it.
  func isInsideRoot(_ candidate: [String]) -> Bool {
    roots.contains { root in
      Self.isPrefix(root, of: candidate) && !candidate[root.count...].contains { $0.hasPrefix(".") }
    }
  }

  static func isPrefix(_ prefix: [String], of path: [String]) -> Bool {
    prefix.count <= path.count && zip(prefix, path).allSatisfy { $0 == $1 }
  }

  /// Opens the allowed folder the walk stands at, if it stands at one and holds no descriptor.
  private mutating func enterRootIfAt() throws(FileAccessError) {
    guard descriptors.isEmpty, missingDepth == 0, roots.contains(position) else { return }
    let opened = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
    guard opened >= 0 else { throw failure(errno) }
    descriptors.append(opened)
  }

  // MARK: Descriptors

  private mutating func popDescriptor() { close(descriptors.removeLast()) }

  private mutating func takeLastDescriptor() -> Int32 { descriptors.removeLast() }

  private mutating func closeAll() {
    for descriptor in descriptors { close(descriptor) }
    descriptors.removeAll()
  }

  // MARK: Messages

  private var verb: String { access == .read ? "read" : "write" }

  private func failure(_ code: Int32) -> FileAccessError {
    FileAccessError("cannot \(verb) \(path): \(String(cString: strerror(code)))")
  }

  private func missing(isLast: Bool) -> FileAccessError {
    if access == .write {
      let folder = "/" + position.dropLast().joined(separator: "/")
      return FileAccessError("cannot write \(path): the folder \(folder) does not exist")
    }
    return FileAccessError("cannot read \(path): \(String(cString: strerror(ENOENT)))")
  }

  static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }
}

/// Where a walk ended: a file open for reading, or a folder and name to write.
enum CheckedEnd {
  case file(CheckedFile)
  case target(CheckedTarget)
}
