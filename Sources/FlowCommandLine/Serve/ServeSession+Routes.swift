import FlowLayout
import FlowGraph
import FlowHTTP
import FlowRuntime

/// The HTTP surface of `flow serve` (Reference.md, "`flow serve`"): `GET /`, `/graph.svg`, `/inside.svg`, `/state.json`,
/// `/events`; `POST /edit`, `/add`, `/connect`, `/delete`, `/move`, `/undo`, `/redo`, `/save` with the page's token and a same-origin
/// check. The server has already refused a foreign `Host` (403).
extension ServeSession {
  static let readPaths: Set<String> = ["/", "/graph.svg", "/inside.svg", "/state.json", "/events"]
  static let writePaths: Set<String> = ["/edit", "/undo", "/redo", "/save", "/add", "/connect", "/delete", "/move"]

  func handle(_ request: HTTPRequest) -> HTTPResponse {
    let path = request.path
    if Self.readPaths.contains(path) {
      guard request.method == "GET" else { return Self.methodNotAllowed("GET") }
      switch path {
      case "/": return page()
      case "/graph.svg":
        return Self.secured(
          HTTPResponse(
            status: 200, contentType: "image/svg+xml; charset=utf-8", text: pictureSVG(),
            headers: [HTTPHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")]))
      case "/inside.svg": return insideSVG(request.target)
      case "/state.json":
        do throws(ServeTables.Refusal) {
          let query = try ServeTables.query(of: request.target)
          if !query.isEmpty {
            let snapshot = state.withLock { $0.snapshot }
            return Self.jsonValue(200, try ServeTables.page(query, snapshot: snapshot))
          }
        } catch {
          return Self.json(error.status, ["error": .string(error.message)])
        }
        let json = state.withLock { ServeEvent.state(snapshot: $0.snapshot, state: $0) }
        return Self.jsonValue(200, json)
      default:
        let params = JSONObject(engine.store.nodes.map { JSONMember(key: $0.id, value: .object($0.data.params)) })
        let initial = state.withLock { ServeEvent.initial(snapshot: $0.snapshot, state: $0, params: params) }
        return HTTPResponse(
          status: 200,
          headers: [
            HTTPHeader("Content-Type", "text/event-stream; charset=utf-8"),
            HTTPHeader("X-Content-Type-Options", "nosniff")
          ],
          body: Array(("retry: 1000\ndata: " + initial.serialized(options: []) + "\n\n").utf8), opensEventStream: true)
      }
    }
    guard Self.writePaths.contains(path) else { return .error(404, "flow serve has no '\(String(path.prefix(100)))'") }
    guard request.method == "POST" else { return Self.methodNotAllowed("POST") }
    if let refusal = refusal(of: request) { return refusal }
    switch path {
    case "/edit": return edit(request.body)
    case "/add": return add(request.body)
    case "/connect": return connect(request.body)
    case "/delete": return delete(request.body)
    case "/move": return move(request.body)
    case "/undo":
      return Self.json(200, ["done": .bool(engine.store.undo()), "revision": .integer(Int64(engine.store.revision))])
    case "/redo":
      return Self.json(200, ["done": .bool(engine.store.redo()), "revision": .integer(Int64(engine.store.revision))])
    default: return save()
    }
  }

  /// 403 unless the request carries this run's token and comes from the page's own origin.
  func refusal(of request: HTTPRequest) -> HTTPResponse? {
    guard let sent = request.header("X-Flow-Token"), Self.constantTimeEqual(sent, token) else {
      return Self.json(
        403, ["error": "missing or wrong token: state-changing requests come from the page flow serve gave out"])
    }
    let host = request.header("Host") ?? ""
    if let origin = request.header("Origin"), origin != "http://" + host {
      return Self.json(403, ["error": "cross-origin request refused"])
    }
    if let site = request.header("Sec-Fetch-Site"), site != "same-origin" {
      return Self.json(403, ["error": "cross-site request refused"])
    }
    return nil
  }

  /// The page: the current picture inline, the token, the script.
  func page() -> HTTPResponse {
    let svg = pictureSVG()
    let (revision, structure) = state.withLock { ($0.revision, $0.structure) }
    let nonce = Self.randomToken()
    let name = file.split(separator: "/").last.map(String.init) ?? file
    let assets: ServePageAssets
    switch ServePageAssets.shared {
    case .success(let loaded): assets = loaded
    case .failure(let missing): return .error(500, missing.message)
    }
    let html = assets.html(
      title: ServePageSVG.escape(name), token: token, nonce: nonce, svg: svg,
      revision: revision, structure: structure, palette: paletteKinds())
    let policy =
      "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)' 'unsafe-inline'; "
      + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    return Self.secured(
      HTTPResponse(
        status: 200, contentType: "text/html; charset=utf-8", text: html,
        headers: [HTTPHeader("Content-Security-Policy", policy)]))
  }

  /// The picture for the current structure (drawn again only when the structure changed).
  func pictureSVG() -> String {
    let (structure, cached, snapshot, movedFrom) = state.withLock {
      ($0.structure, $0.picture, $0.snapshot, $0.movedFrom)
    }
    if let cached, cached.structure == structure { return cached.svg }
    let document = engine.store.export()
    let library = engine.store.subgraphLibrary
    // Instances are drawn as one node each, with their definitions' ports.
    let catalog: any NodeCatalog = library.isEmpty ? registry : SubgraphCatalog(base: registry, library: library)
    guard let graph = try? DocumentValidator.validate(document, catalog: catalog) else {
      return
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">the graph does not validate</text></svg>"
    }
    var picture = GraphPicture(graph: graph, values: snapshot)
    ServeParamRow.fit(&picture, graph: graph, registry: registry)
    picture.placeLayered()
    Self.placeMoved(&picture, document: graph.document, movedFrom: movedFrom)
    let sources = Set(snapshot?.sourceEmissionCounts.keys ?? [:].keys)
    let svg = ServePageSVG.svg(
      picture, graph: graph, registry: registry, liveSources: sources, subgraphKinds: Set(library.subgraphs.keys))
    let shapes = Self.shapes(snapshot)
    state.withLock { state in
      if state.structure == structure {
        state.picture = (structure, svg)
        state.drawnShapes = shapes
      }
    }
    return svg
  }

  static func json(_ status: Int, _ object: JSONObject) -> HTTPResponse { jsonValue(status, .object(object)) }

  static func jsonValue(_ status: Int, _ value: JSONValue) -> HTTPResponse {
    secured(
      HTTPResponse(
        status: status, contentType: "application/json; charset=utf-8", text: value.serialized(options: []) + "\n"))
  }

  static func methodNotAllowed(_ allowed: String) -> HTTPResponse {
    var response = HTTPResponse.error(405, "use \(allowed)")
    response.headers.append(HTTPHeader("Allow", allowed))
    return response
  }

  /// No caching, no sniffing, no framing by other sites.
  static func secured(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    response.headers += [
      HTTPHeader("Cache-Control", "no-store"), HTTPHeader("X-Content-Type-Options", "nosniff"),
      HTTPHeader("X-Frame-Options", "DENY"), HTTPHeader("Referrer-Policy", "no-referrer")
    ]
    return response
  }

  /// Compares without stopping at the first difference.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }
}
