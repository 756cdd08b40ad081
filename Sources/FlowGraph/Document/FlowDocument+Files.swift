import Foundation

extension FlowDocument {
  /// Reads the document file at `path` and records its folder (`folder`), so an engine made
  /// from it resolves file nodes' relative paths (`readCSV`'s `path`, …) against the file's
  /// folder rather than the working directory.
  ///
  /// ```swift
  /// let document = try FlowDocument(contentsOf: "Pipelines/report.flow.json")
  /// let engine = try FlowEngine(document: document, registry: .standard)
  /// ```
  ///
  /// - Parameter path: the file, absolute or relative to the working directory.
  /// - Throws: `DocumentFileError` naming the path: the system's reason when the file cannot be
  ///   read, or the document's problems (`loadError`) when it is not a valid document.
  public init(contentsOf path: String) throws(DocumentFileError) {
    let absolute = Self.absolutePath(path)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) else {
      throw DocumentFileError(path: path, reason: "cannot read the file: no such file or directory")
    }
    guard !isFolder.boolValue else {
      throw DocumentFileError(path: path, reason: "cannot read the file: it is a directory")
    }
    guard let data = FileManager.default.contents(atPath: absolute) else {
      throw DocumentFileError(path: path, reason: "cannot read the file: permission denied")
    }
    do {
      try self.init(jsonBytes: Array(data))
    } catch {
      throw DocumentFileError(path: path, reason: error.description, loadError: error)
    }
    folder = (absolute as NSString).deletingLastPathComponent
  }

  /// `path` made absolute against the working directory and standardized (`..` resolved).
  static func absolutePath(_ path: String) -> String {
    let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return (joined as NSString).standardizingPath
  }
}
