import FlowGraph
import FlowRuntime
import Foundation

extension DocumentLoading {
  /// `document` with its definitions and imports validated and its instances inlined (Reference.md, "Subgraphs").
  ///
  /// Imports are read through `registry.environment`'s file policy, relative to its document
  /// folder (set it first, as `RunCommand.environment(for:_:_:)` does; `importing(_:)` makes
  /// one for commands without `--allow-read`).
  ///
  /// - Throws: status 2 listing every problem of the definitions, imports and graph.
  static func expand(_ document: FlowDocument, file: String, registry: NodeKindRegistry) throws(CommandFailure)
    -> ExpandedDocument
  {
    let environment = registry.environment
    do {
      let imported = try SubgraphImports.sources(
        of: document, folder: environment.documentFolder,
        path: file == "-" ? nil : FileAccessPolicy.absolutePath(file),
        policy: environment.fileAccess)
      return try ExpandedDocument(document, imported: imported, catalog: registry)
    } catch {
      throw CommandFailure.load(.invalid(withSuggestions(error, document: document, registry: registry)), file: file)
    }
  }

  /// The folder of document `file` (the working directory for `-`): where its relative paths
  /// resolve and what the default file policy allows.
  static func folder(of file: String) -> String {
    file == "-"
      ? FileAccessPolicy.currentDirectory
      : ((FileAccessPolicy.absolutePath(file) as NSString).standardizingPath as NSString).deletingLastPathComponent
  }

  /// `registry` reading imports from the folder of `file` (and nowhere else).
  static func importing(_ file: String, registry: NodeKindRegistry) -> NodeKindRegistry {
    let folder = folder(of: file)
    var registry = registry
    registry.environment.documentFolder = folder
    registry.environment.fileAccess = FileAccessPolicy(readableRoots: [folder], writableRoots: [])
    return registry
  }

  /// Validates `document` (definitions, imports, instances, then the flattened graph).
  static func validateExpanding(
    _ document: FlowDocument, registry: NodeKindRegistry,
    file: String
  ) throws(CommandFailure) -> (expanded: ExpandedDocument, graph: ResolvedGraph) {
    let expanded = try expand(document, file: file, registry: importing(file, registry: registry))
    return (expanded, try validate(expanded.flat, registry: registry, file: file))
  }
}

extension DocumentLoading {
  /// Validates `document` as written, instances as single nodes with their definitions'
  /// ports (what `render` and `layout` draw), after checking its definitions and imports.
  static func validateOuter(
    _ document: FlowDocument, registry: NodeKindRegistry,
    file: String
  ) throws(CommandFailure) -> (expanded: ExpandedDocument, graph: ResolvedGraph) {
    let expanded = try expand(document, file: file, registry: importing(file, registry: registry))
    guard !expanded.library.isEmpty else { return (expanded, try validate(document, registry: registry, file: file)) }
    do {
      return (
        expanded,
        try DocumentValidator.validate(document, catalog: SubgraphCatalog(base: registry, library: expanded.library))
      )
    } catch {
      throw CommandFailure.load(.invalid(withSuggestions(error, document: document, registry: registry)), file: file)
    }
  }
}
