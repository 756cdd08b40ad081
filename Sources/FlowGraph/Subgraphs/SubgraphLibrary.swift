import Synchronization

/// The subgraph kinds a document can use: its own definitions and those of the documents it
/// imports, each validated once (Reference.md, "Subgraphs").
public struct SubgraphLibrary: Sendable, Hashable {
  /// How deeply instances may nest (an instance inside a definition inside a definition …).
  public static let maximumDepth = 64

  /// Every definition by name.
  public private(set) var subgraphs: [String: ResolvedSubgraph] = [:]
  /// Each definition's nesting depth: 1 for one without instances inside, else 1 + the
  /// deepest definition it uses.
  public private(set) var depths: [String: Int] = [:]
  /// For each definition, the definitions it uses directly (its inner instances' kinds).
  public private(set) var uses: [String: [String]] = [:]

  /// The most nodes a document's instances may inline, all together (a document of a few
  /// kilobytes could otherwise nest its way to billions): 1,000,000 unless set (at least 1).
  /// Each inlined node costs about a kilobyte and a few microseconds to expand and validate, so
  /// a million keeps the worst document near a gigabyte (20 million took 14 GB and over a
  /// minute). Process-wide: a host sets it once; `flow` sets it from `--max-inlined-nodes N`.
  public static var maximumInlinedNodes: Int {
    get { inlinedNodeLimit.load(ordering: .relaxed) }
    set { inlinedNodeLimit.store(max(1, newValue), ordering: .relaxed) }
  }

  /// The default of `maximumInlinedNodes`.
  public static let defaultMaximumInlinedNodes = 1_000_000

  private static let inlinedNodeLimit = Atomic<Int>(defaultMaximumInlinedNodes)

  /// An empty library.
  public init() {}

  public var isEmpty: Bool { subgraphs.isEmpty }

  public subscript(name: String) -> ResolvedSubgraph? { subgraphs[name] }

  /// How many nodes one node of kind `kind` inlines: 1 unless it is an instance.
  public func inlinedSize(of kind: String) -> Int { subgraphs[kind]?.inlinedSize ?? 1 }

  /// `a + b`, or `Int.max` where that overflows.
  static func saturatingSum(_ a: Int, _ b: Int) -> Int { a > Int.max - b ? Int.max : a + b }

  /// The names, sorted.
  public var names: [String] { subgraphs.keys.sorted() }

  /// Validates the definitions of `sources` (the document's own first, then each import) and
  /// resolves their ports.
  ///
  /// - Parameter catalog: the built-in and registered kinds; a definition may not take one's name.
  /// - Throws: every problem found: a name defined twice or equal to a kind of `catalog`
  ///   (naming both places), a definition that uses itself (the chain), nesting deeper than
  ///   `maximumDepth`, and each definition's own problems (naming it and the inner id).
  public init(_ sources: [SubgraphSource], catalog: some NodeCatalog) throws(GraphValidationError) {
    var collector = IssueCollector()
    var definitions: [String: (definition: SubgraphDefinition, origin: String)] = [:]
    for source in sources {
      for name in source.definitions.keys.sorted() {
        let definition = source.definitions[name]!
        let place = source.origin == SubgraphSource.thisDocument ? "this document" : source.origin
        if let earlier = definitions[name] {
          collector.report(
            GraphIssue(
              .duplicateSubgraph,
              "subgraph '\(name)' is defined twice: in \(earlier.origin) and in \(place)"))
          continue
        }
        if name.isEmpty || name.contains("/") {
          collector.report(
            GraphIssue(
              .invalidSubgraph,
              "subgraph '\(name)' in \(place): a subgraph's name must be non-empty and must not contain '/'"))
          continue
        }
        if name == SubgraphBoundary.inputKind || name == SubgraphBoundary.outputKind || name == NodeSpec.groupKind
          || name.hasPrefix(SubgraphExpander.reservedPrefix) || catalog.resolve(NodeSpec(kind: name)) != .unknownKind
        {
          collector.report(
            GraphIssue(
              .duplicateSubgraph,
              "subgraph '\(name)' in \(place) has the name of a built-in or registered kind '\(name)'"))
          continue
        }
        definitions[name] = (definition, source.origin)
      }
    }
    // Which definitions each uses, then the order leaves-first (and cycles, as chains).
    var uses: [String: [String]] = [:]
    for (name, entry) in definitions {
      var seen = Set<String>()
      uses[name] = entry.definition.nodes.compactMap { node in
        definitions[node.data.kind] != nil && seen.insert(node.data.kind).inserted ? node.data.kind : nil
      }
    }
    let (order, cycles) = Self.order(uses)
    for cycle in cycles {
      let chain = cycle.map { name in
        let origin = definitions[name]!.origin
        return origin == SubgraphSource.thisDocument ? name : "\(name) (in \(origin))"
      }
      collector.report(
        GraphIssue(
          .cycle, "subgraph '\(cycle[0])' uses itself, a cycle: \(chain.joined(separator: " → ")) → \(cycle[0])",
          nodeIDs: cycle))
    }
    var library = SubgraphLibrary()
    library.uses = uses
    for name in order {
      guard let entry = definitions[name] else { continue }
      let inner = uses[name] ?? []
      library.depths[name] = inner.isEmpty ? 1 : 1 + inner.map { library.depths[$0] ?? 0 }.max()!
      if library.depths[name]! > Self.maximumDepth {
        collector.report(
          GraphIssue(
            .invalidSubgraph,
            "subgraph '\(name)' nests instances \(library.depths[name]!) deep; at most \(Self.maximumDepth) levels are supported"
          ))
        continue
      }
      if inner.contains(where: { library.subgraphs[$0] == nil }) { continue }  // a problem there is reported already
      if let resolved = Self.resolve(
        name, entry.definition, origin: entry.origin, library: library, catalog: catalog,
        collector: &collector)
      {
        var resolved = resolved
        resolved.inlinedSize = entry.definition.nodes.reduce(1) {
          Self.saturatingSum($0, library.inlinedSize(of: $1.data.kind))
        }
        library.subgraphs[name] = resolved
      }
    }
    if collector.hasIssues { throw collector.error }
    self = library
  }

  /// The definitions in an order where each comes after those it uses, and the cycles found
  /// (each as its chain of names, once). Iterative: no recursion in the number of definitions.
  static func order(_ uses: [String: [String]]) -> (order: [String], cycles: [[String]]) {
    var state: [String: Int] = [:]  // 1 on the stack, 2 done
    var order: [String] = []
    var cycles: [[String]] = []
    for root in uses.keys.sorted() where state[root] == nil {
      var stack: [(name: String, next: Int)] = [(root, 0)]
      state[root] = 1
      while let top = stack.last {
        let children = uses[top.name] ?? []
        if top.next < children.count {
          stack[stack.count - 1].next += 1
          let child = children[top.next]
          switch state[child] {
          case nil:
            state[child] = 1
            stack.append((child, 0))
          case 1?:
            let start = stack.firstIndex { $0.name == child }!
            cycles.append(stack[start...].map(\.name))
          default:
            break
          }
        } else {
          state[top.name] = 2
          order.append(top.name)
          stack.removeLast()
        }
      }
    }
    return (order, cycles)
  }
}

/// Collects issues up to the report limit (as `ValidationContext` does).
struct IssueCollector {
  var issues: [GraphIssue] = []
  var unreportedCount = 0
  var hasIssues: Bool { !issues.isEmpty || unreportedCount > 0 }

  mutating func report(_ issue: GraphIssue) {
    if issues.count < GraphValidationError.reportedIssueLimit { issues.append(issue) } else { unreportedCount += 1 }
  }

  mutating func report(_ error: GraphValidationError, prefix: String) {
    for var issue in error.issues {
      issue.message = prefix + issue.message
      report(issue)
    }
    unreportedCount += error.unreportedCount
  }

  var error: GraphValidationError { GraphValidationError(issues: issues, unreportedCount: unreportedCount) }
}

extension GraphIssue.Code {
  /// A subgraph name defined twice, or equal to a built-in or registered kind.
  public static let duplicateSubgraph = GraphIssue.Code(rawValue: "duplicateSubgraph")
  /// A definition with a problem of its own (bad ports, nesting too deep, a bad name).
  public static let invalidSubgraph = GraphIssue.Code(rawValue: "invalidSubgraph")
  /// An instance that neither connects nor sets a required input.
  public static let missingInput = GraphIssue.Code(rawValue: "missingInput")
  /// A problem with `flowRuntime.imports` (a path the policy refuses, an unreadable file).
  public static let invalidImport = GraphIssue.Code(rawValue: "invalidImport")
}
