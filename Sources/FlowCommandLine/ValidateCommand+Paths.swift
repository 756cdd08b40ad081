import FlowGraph
import FlowRuntime
import Foundation

extension ValidateCommand {
  /// One warning for each file path a run of `document` with the default policy would refuse
  /// (the document's folder's tree only), naming the node, the param and the `flow run` option
  /// that allows it. A path that is missing or not yet written is not warned about here: a run
  /// names it.
  static func pathWarnings(_ document: FlowDocument, file: String, registry: NodeKindRegistry) -> [String] {
    let folder = DocumentLoading.folder(of: file)
    let policy = FileAccessPolicy(readableRoots: [folder], writableRoots: [folder])
    var warnings: [String] = []
    for node in document.nodes {
      guard let kind = registry.kind(named: node.data.kind) else { continue }
      for parameter in kind.parameters {
        guard let access = parameter.fileAccess, let path = node.data.params[parameter.name]?.stringValue,
          !path.isEmpty, path != "-"
        else { continue }
        do {
          _ = try policy.resolve(path, relativeTo: folder, for: access)
        } catch {
          guard error.message.hasPrefix("path outside") else { continue }
          let target = path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
          let allowed = ((target as NSString).standardizingPath as NSString).deletingLastPathComponent
          let option = access == .read ? "--allow-read" : "--allow-write"
          warnings.append(
            "warning: node '\(node.id)': param '\(parameter.name)': \(path) is outside the folders a run may "
              + "\(access == .read ? "read" : "write") by default; flow run \(option) \(allowed) allows it")
        }
      }
    }
    return warnings
  }
}
