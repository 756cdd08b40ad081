import FlowGraph
import Foundation

/// The cache keys of a document's nodes, computed top-down without evaluating anything.
///
/// A node's key is the SHA-256 of: the key format's tag, the product version, the kind's name
/// and `kindVersion`, the params (sorted by name — a node's params are a set — each value
/// serialized as the document wrote it: nested objects keep their members' order, which is
/// meaning for records such as `derive`'s columns, and integers stay exact), and for each
/// incoming edge (sorted by target port, source port, source node) the ports and the source's
/// key. A reader's key adds the identity of each file it reads (device, inode, size,
/// modification time in ns, through the file-access policy's race-free walk) and, when the
/// cache verifies reads, the SHA-256 of the file's bytes.
///
/// A node has no key — it is never served from the cache and neither is anything downstream —
/// when its kind is unknown, its params are rejected, it is live, its kind is not
/// deterministic, a file it reads cannot be opened, or it sits on a cycle.
package struct RunCacheKeys: Sendable {
  /// What a node does with files.
  package enum Role: Sendable, Equatable {
    case computes
    case reads
    /// A writer, with the canonical path of its target.
    case writes(target: String)

    var isWriter: Bool {
      if case .writes = self { return true }
      return false
    }
  }

  /// The key and facts of one node.
  package struct Node: Sendable {
    package var key: CacheKey?
    package var role: Role
    /// The ports the node's kind declares for its params.
    package var outputs: [PortDeclaration]
    /// The nodes that feed its inputs.
    package var sources: [String]
  }

  /// Node id → its key and facts.
  package private(set) var nodes: [String: Node] = [:]
  /// Whether a node of the document is live (a host engine then leaves the cache alone).
  package private(set) var hasLiveNodes = false

  /// The keys of `document`'s nodes under `registry` (whose environment says where files
  /// resolve and which may be opened).
  ///
  /// - Complexity: O(*n* + *m* log *m*) for *n* nodes and *m* edges, plus one `open` and
  ///   `fstat` per file a reader names (a read of its bytes with `verifiesReads`).
  package init(document: FlowDocument, registry: NodeKindRegistry, productVersion: String, verifiesReads: Bool) {
    var position: [String: Int] = [:]
    position.reserveCapacity(document.nodes.count)
    for (index, node) in document.nodes.enumerated() { position[node.id] = index }
    var incoming = [[FlowEdge]](repeating: [], count: document.nodes.count)
    var endpoints: [(source: Int32, target: Int32)] = []
    for edge in document.edges {
      guard let source = position[edge.sourceNodeID], let target = position[edge.targetNodeID] else { continue }
      incoming[target].append(edge)
      endpoints.append((Int32(source), Int32(target)))
    }
    // The batch topological order: a node's sources get their keys first; nodes on a cycle
    // (or downstream of one) are left out and get none.
    let order = TopologicalOrder.sorting(SuccessorLists(nodeCount: document.nodes.count, edges: endpoints) { $0 }).order
    var keys = [CacheKey?](repeating: nil, count: document.nodes.count)
    let environment = registry.environment
    for placed in order {
      let index = Int(placed)
      let node = document.nodes[index]
      let edges = incoming[index].sorted {
        ($0.targetHandleID ?? "", $0.sourceHandleID ?? "", $0.sourceNodeID) < (
          $1.targetHandleID ?? "", $1.sourceHandleID ?? "", $1.sourceNodeID
        )
      }
      var facts = Node(key: nil, role: .computes, outputs: [], sources: edges.map(\.sourceNodeID))
      if let kind = registry.kind(named: node.data.kind), case .success(let configured) = registry.configure(node.data)
      {
        facts.outputs = configured.signature.outputs
        var hash = SHA256()
        hash.update(field: "flow-cache-key/1")
        hash.update(field: productVersion)
        hash.update(field: kind.name)
        hash.update(integer: UInt64(bitPattern: Int64(kind.kindVersion)))
        let params = node.data.params.members.sorted { $0.key < $1.key }
        hash.update(integer: UInt64(params.count))
        for member in params {
          hash.update(field: member.key)
          hash.update(field: member.value.serialized(options: [.distinguishingDoubles]))
        }
        if configured.instance.live != nil { hasLiveNodes = true }
        var complete = kind.isDeterministic && configured.instance.live == nil && !configured.instance.isContainer
        hash.update(integer: UInt64(edges.count))
        for edge in edges {
          guard let source = position[edge.sourceNodeID], let key = keys[source] else {
            complete = false
            break
          }
          hash.update(field: edge.targetHandleID ?? "")
          hash.update(field: edge.sourceHandleID ?? "")
          hash.update(key.bytes)
        }
        for parameter in kind.parameters where complete && parameter.fileAccess != nil {
          guard let path = node.data.params[parameter.name]?.stringValue ?? parameter.defaultValue.flatMap(Self.text)
          else { continue }
          if parameter.fileAccess == .read {
            facts.role = .reads
            guard let file = try? environment.fileAccess.open(path, relativeTo: environment.documentFolder),
              let identity = FileIdentity(descriptor: file.descriptor)
            else {
              complete = false
              continue
            }
            hash.update(field: file.path)
            for number in [
              identity.device, identity.inode, UInt64(bitPattern: identity.size), UInt64(bitPattern: identity.modified)
            ] {
              hash.update(integer: number)
            }
            if verifiesReads {
              guard let bytes = try? FileContents.read(file) else {
                complete = false
                continue
              }
              hash.update(SHA256.digest(bytes).bytes)
            }
          } else {
            // A target whose folder the writer will make resolves by name (only compared by
            // `lstat` later, never opened).
            let target =
              (try? environment.fileAccess.resolve(path, relativeTo: environment.documentFolder, for: .write))
              ?? ((path.hasPrefix("/") ? path : environment.documentFolder + "/" + path) as NSString).standardizingPath
            facts.role = .writes(target: target)
            hash.update(field: target)
          }
        }
        if complete { facts.key = hash.finalize() }
      }
      keys[index] = facts.key
      nodes[node.id] = facts
    }
  }

  private static func text(_ value: Value) -> String? {
    if case .string(let text) = value { return text }
    return nil
  }
}
