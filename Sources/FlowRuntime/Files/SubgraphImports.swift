import FlowGraph
import Foundation

/// Reads the documents a document imports (`flowRuntime.imports`, Reference.md, "Subgraphs") through the file
/// policy: each path relative to the importing document's folder, imports transitive, a
/// document imported twice (or the document itself) read once.
public enum SubgraphImports {
  /// The most documents one load imports, all levels together.
  public static let maximumDocuments = 256

  /// The definitions of every document `document` imports, in the order first reached.
  ///
  /// - Parameters:
  ///   - folder: the folder of `document` (imports resolve against it).
  ///   - path: `document`'s own path, if it has one, so that an import of it counts once.
  ///   - policy: where documents may be read.
  /// - Throws: each import the policy refuses, that cannot be read or is not a valid
  ///   document, naming the path and the document that imports it.
  public static func sources(
    of document: FlowDocument, folder: String, path: String? = nil,
    policy: FileAccessPolicy
  ) throws(GraphValidationError) -> [SubgraphSource] {
    guard !document.imports.isEmpty else { return [] }
    var seen = Set<String>()
    if let path, let own = try? policy.resolve(path, relativeTo: folder, for: .read) { seen.insert(own) }
    var queue: [(path: String, folder: String, importer: String)] = document.imports.map {
      ($0, folder, "this document")
    }
    var head = 0
    var sources: [SubgraphSource] = []
    var issues: [GraphIssue] = []
    while head < queue.count {
      let (importPath, importFolder, importer) = queue[head]
      head += 1
      let what = "import '\(importPath.controlEscaped)' (in \(importer))"
      let file: CheckedFile
      do { file = try policy.open(importPath, relativeTo: importFolder) } catch {
        issues.append(GraphIssue(.invalidImport, "\(what): \(error)"))
        continue
      }
      guard seen.insert(file.path).inserted else { continue }
      guard seen.count <= maximumDocuments else {
        issues.append(GraphIssue(.invalidImport, "\(what): more than \(maximumDocuments) documents imported"))
        break
      }
      let imported: FlowDocument
      do {
        imported = try FlowDocument(jsonBytes: try FileContents.read(file))
      } catch let error as DocumentLoadError {
        issues.append(GraphIssue(.invalidImport, "\(what): \(error.description.split(separator: "\n").first ?? "")"))
        continue
      } catch {
        issues.append(GraphIssue(.invalidImport, "\(what): \(error)"))
        continue
      }
      sources.append(SubgraphSource(origin: importPath, definitions: imported.subgraphs))
      let nextFolder = (file.path as NSString).deletingLastPathComponent
      for next in imported.imports { queue.append((next, nextFolder, importPath)) }
    }
    if !issues.isEmpty {
      throw GraphValidationError(issues: Array(issues.prefix(GraphValidationError.reportedIssueLimit)))
    }
    return sources
  }
}
