import Dispatch
import FlowGraph
import FlowHTTP
import Foundation
import Testing
@testable import FlowCommandLine
import FlowHTTPTestSupport

/// `flow serve` in process: the page's protocol (edit → event → state), its refusals, undo,
/// redo, Save and reloading the file as a diff — over real loopback sockets.
@Suite(.serialized) struct ServeProtocolTests {
  static let calculator = """
    {"nodes": [
      {"id": "price", "data": {"kind": "number", "params": {"value": 12.5}, "label": "unit price"}},
      {"id": "quantity", "data": {"kind": "number", "params": {"value": 4}}},
      {"id": "taxRate", "data": {"kind": "number", "params": {"value": 0.2}}},
      {"id": "subtotal", "data": {"kind": "multiply"}},
      {"id": "tax", "data": {"kind": "multiply"}},
      {"id": "total", "data": {"kind": "add"}},
      {"id": "perPerson", "data": {"kind": "divide", "params": {"b": 3}}},
      {"id": "flag", "data": {"kind": "number", "params": {"value": 1}}}
    ], "edges": [
      {"id": "e1", "sourceNodeID": "price", "sourceHandleID": "value", "targetNodeID": "subtotal", "targetHandleID": "a"},
      {"id": "e2", "sourceNodeID": "quantity", "sourceHandleID": "value", "targetNodeID": "subtotal", "targetHandleID": "b"},
      {"id": "e3", "sourceNodeID": "subtotal", "sourceHandleID": "result", "targetNodeID": "tax", "targetHandleID": "a"},
      {"id": "e4", "sourceNodeID": "taxRate", "sourceHandleID": "value", "targetNodeID": "tax", "targetHandleID": "b"},
      {"id": "e5", "sourceNodeID": "subtotal", "sourceHandleID": "result", "targetNodeID": "total", "targetHandleID": "a"},
      {"id": "e6", "sourceNodeID": "tax", "sourceHandleID": "result", "targetNodeID": "total", "targetHandleID": "b"},
      {"id": "e7", "sourceNodeID": "total", "sourceHandleID": "result", "targetNodeID": "perPerson", "targetHandleID": "a"}
    ]}
    """

  /// A served copy of `text` in a fresh folder (no file watching: the test calls `reload()`).
  struct Served {
    let session: ServeSession
    let file: URL
    let token: String
    var port: UInt16 { session.port }

    /// - Parameter files: more files for the folder (name → contents), such as a CSV it reads.
    init(_ text: String = ServeProtocolTests.calculator, files: [String: String] = [:]) async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (name, contents) in files {
        try contents.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
      }
      file = folder.appendingPathComponent("calc.flow.json")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let arguments = try ArgumentParser.parse([file.path, "--port", "0"], as: ServeCommand.spec)
      let context = CommandContext(stderrIsTerminal: false, write: { _ in }, warn: { _ in }, writeDiagnostic: { _ in })
      session = try ServeCommand.start(arguments, context: context, watchInterval: nil)
      await session.awaitFirstPass()
      token = session.token
    }

    /// Stops the server and removes the folder, so no test run leaves one behind.
    func finish() async {
      await session.stop()
      try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    func request(_ method: String, _ path: String, body: String = "", headers: [String: String] = [:]) async throws
      -> (status: Int, headers: [String: String], body: String)?
    {
      let port = port
      return try await blocking { () throws(HTTPServerError) in
        try Self.requestNow(port: port, method, path, body: body, headers: headers)
      }
    }

    static func requestNow(port: UInt16, _ method: String, _ path: String, body: String, headers: [String: String])
      throws(HTTPServerError) -> (status: Int, headers: [String: String], body: String)?
    {
      let client = try HTTPClientSocket(port: port, timeoutSeconds: 60)
      var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      client.send(head + "\r\n" + body)
      return client.response()
    }

    func post(_ path: String, _ body: String = "{}") async throws -> (status: Int, json: JSONValue?) {
      let response = try await request(
        "POST", path, body: body,
        headers: [
          "X-Flow-Token": token, "Origin": "http://127.0.0.1:\(port)",
          "Content-Type": "application/json"
        ])
      return (response?.status ?? 0, response.flatMap { try? JSONValue.parse(Array($0.body.utf8)) })
    }

    func state() async throws -> JSONValue? {
      try await request("GET", "/state.json").flatMap { try? JSONValue.parse(Array($0.body.utf8)) }
    }

    /// An event stream; reads wait up to 60 s (a loaded machine can starve the task that
    /// follows the engine's reports for a while).
    func openEvents() throws -> HTTPClientSocket {
      let client = try HTTPClientSocket(port: port, timeoutSeconds: 60)
      client.send("GET /events HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
      return client
    }
  }

  /// Runs blocking socket work on a thread of its own: a test that blocked a thread of the
  /// cooperative pool could starve the task that turns the engine's reports into events, and
  /// one that blocked Dispatch's global queue could starve everything else queued there.
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws(HTTPServerError) -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        do throws(HTTPServerError) { continuation.resume(returning: try body()) } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  static func event(_ client: HTTPClientSocket) async -> JSONValue? {
    (try? await blocking { nextEvent(client) }) ?? nil
  }

  static func pass(_ client: HTTPClientSocket, revision: JSONValue?) async -> JSONValue? {
    (try? await blocking { nextPass(client, revision: revision) }) ?? nil
  }

  /// The next event of a stream, as JSON.
  static func nextEvent(_ client: HTTPClientSocket) -> JSONValue? {
    while let text = client.receive(until: "\n\n") {
      guard let start = text.range(of: "data: ") else { continue }
      return try? JSONValue.parse(Array(text[start.upperBound...].dropLast(2).utf8))
    }
    return nil
  }

  /// The next event that reports a pass of revision `revision` or later (the first pass's own
  /// event may still be on its way when a test's stream opens).
  static func nextPass(_ client: HTTPClientSocket, revision: JSONValue?) -> JSONValue? {
    let wanted: Int64
    switch revision {
    case .integer(let value)?: wanted = value
    default: return nil
    }
    while let event = nextEvent(client) {
      if event["ran"] != nil, case .integer(let got)? = event["revision"], got >= wanted { return event }
    }
    return nil
  }

  static func strings(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }

  @Test func anEditIsPushedToThePageAndShowsInTheState() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let page = try await served.request("GET", "/")
    #expect(page?.status == 200)
    let html = page?.body ?? ""
    for marker in [
      "data-node=\"price\"", "data-param=\"value\"", "data-action=\"save\"", "data-action=\"undo\"",
      "<meta name=\"flow-token\" content=\"\(served.token)\">", "subtotal", "result = 50"
    ] {
      #expect(html.contains(marker), "the page holds \(marker)")
    }
    #expect(!html.contains("src=\"http") && !html.contains("href=\"http"), "no external URLs")
    #expect(page?.headers["content-security-policy"]?.contains("default-src 'none'") == true)

    let events = try served.openEvents()
    let initial = await Self.event(events)
    #expect(initial?["initial"] == true)
    #expect(initial?["values"]?["total"]?["result"] == "60")

    let edit = try await served.post("/edit", #"{"node": "price", "param": "value", "value": "20"}"#)
    #expect(edit.status == 200)
    let pass = await Self.pass(events, revision: edit.json?["revision"])
    #expect(
      Set(Self.strings(pass?["ran"])) == ["price", "subtotal", "tax", "total", "perPerson"],
      "exactly the descendants ran")
    #expect(pass?["values"]?["total"]?["result"] == "96")
    #expect(pass?["values"]?["perPerson"]?["result"] == "32")
    #expect(pass?["values"]?["quantity"] == nil)
    #expect(pass?["params"]?["price"]?["value"] == .integer(20))

    let state = try await served.state()
    #expect(state?["outputs"]?["total"]?["result"] == .integer(96))
    #expect(state?["outputs"]?["flag"]?["value"] == .integer(1))
    #expect(state?["revision"] == pass?["revision"])
    #expect(Set(Self.strings(state?["report"]?["ran"])) == ["price", "subtotal", "tax", "total", "perPerson"])
  }

  @Test func aRejectedEditIsAnsweredWithItsReasonAndChangesNothing() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let before = try await served.state()
    let bad = try await served.post("/edit", #"{"node": "price", "param": "value", "value": "twelve"}"#)
    #expect(bad.status == 200)
    #expect(bad.json?["ok"] == false)
    #expect(bad.json?["error"] == "price.value: expects a number, got 'twelve'")
    let unknown = try await served.post("/edit", #"{"node": "price", "param": "nope", "value": "1"}"#)
    #expect(unknown.json?["ok"] == false)
    #expect(unknown.json?["error"]?.stringValue?.contains("no editable param 'nope'") == true)
    let missing = try await served.post("/edit", #"{"node": "ghost", "param": "value", "value": "1"}"#)
    #expect(missing.json?["error"] == "there is no node 'ghost'")
    #expect(try await served.post("/edit", "not json").status == 400)
    #expect(try await served.state() == before, "nothing changed")
  }

  @Test func stateChangingRequestsNeedTheTokenTheOriginAndPost() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let body = #"{"node": "price", "param": "value", "value": "1"}"#
    #expect(try await served.request("POST", "/edit", body: body)?.status == 403, "no token")
    // A token differing in its first character (never equal to the real one, whatever it starts with).
    let wrongToken = (served.token.hasPrefix("0") ? "1" : "0") + served.token.dropFirst()
    #expect(try await served.request("POST", "/edit", body: body, headers: ["X-Flow-Token": wrongToken])?.status == 403)
    #expect(
      try await served.request(
        "POST", "/edit", body: body,
        headers: [
          "X-Flow-Token": served.token,
          "Origin": "http://evil.example"
        ])?.status == 403)
    #expect(
      try await served.request(
        "POST", "/save", headers: ["X-Flow-Token": served.token, "Sec-Fetch-Site": "cross-site"])?.status == 403)
    #expect(try await served.request("GET", "/edit")?.status == 405)
    #expect(try await served.request("POST", "/state.json")?.status == 405)
    #expect(try await served.request("GET", "/etc/passwd")?.status == 404)
    let client = try HTTPClientSocket(port: served.port)
    client.send("GET / HTTP/1.1\r\nHost: rebound.example:\(served.port)\r\n\r\n")
    #expect(try await Self.blocking { client.response()?.status } == 403, "DNS rebinding")
    #expect(try await served.state()?["outputs"]?["price"]?["value"] == .number(12.5), "nothing changed, still serving")
  }

  @Test func undoRedoAndSaveGoThroughTheStore() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let events = try served.openEvents()
    _ = await Self.event(events)
    let edit = try await served.post("/edit", #"{"node": "quantity", "param": "value", "value": "10"}"#)
    #expect(await Self.pass(events, revision: edit.json?["revision"])?["values"]?["total"]?["result"] == "150")
    let undo = try await served.post("/undo").json
    #expect(undo?["done"] == true)
    let undone = await Self.pass(events, revision: undo?["revision"])
    #expect(undone?["values"]?["total"]?["result"] == "60")
    #expect(undone?["params"]?["quantity"]?["value"] == .integer(4))
    let redo = try await served.post("/redo").json
    #expect(redo?["done"] == true)
    #expect(await Self.pass(events, revision: redo?["revision"])?["values"]?["total"]?["result"] == "150")
    let onDisk = try String(contentsOf: served.file, encoding: .utf8)
    #expect(!onDisk.contains("\"value\":10"), "nothing is written until Save")
    #expect(try await served.post("/save").status == 200)
    let saved = try JSONValue.parse(Array(try Data(contentsOf: served.file)))
    let quantity = saved["nodes"]?.arrayValue?.first { $0["id"] == "quantity" }
    #expect(quantity?["data"]?["params"]?["value"] == .integer(10))
  }

  @Test func aChangedFileIsReloadedAsADiffSoOnlyItsDescendantsRerun() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let events = try served.openEvents()
    _ = await Self.event(events)
    let changed = Self.calculator.replacingOccurrences(
      of: #""params": {"value": 0.2}"#, with: #""params": {"value": 0.5}"#)
    try changed.write(to: served.file, atomically: true, encoding: .utf8)
    let before = try await served.state()?["revision"]
    served.session.reload()
    let next: JSONValue? = if case .integer(let value)? = before { .integer(value + 1) } else { nil }
    let pass = await Self.pass(events, revision: next)
    #expect(Set(Self.strings(pass?["ran"])) == ["taxRate", "tax", "total", "perPerson"])
    #expect(pass?["values"]?["total"]?["result"] == "75")
    // A file that does not validate changes nothing and is reported.
    try changed.replacingOccurrences(of: "\"multiply\"", with: "\"multiplyy\"").write(
      to: served.file, atomically: true, encoding: .utf8)
    served.session.reload()
    var note = await Self.event(events)
    while let event = note, event["reloadError"] == nil { note = await Self.event(events) }
    #expect(note?["reloadError"]?.stringValue?.contains("multiplyy") == true)
    #expect(try await served.state()?["outputs"]?["total"]?["result"] == .integer(75))
  }

  @Test func aNodeAddedOnDiskRunsAloneAndRedrawsThePicture() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let events = try served.openEvents()
    _ = await Self.event(events)
    let before = try await served.state()?["revision"]
    let added = Self.calculator
      .replacingOccurrences(
        of: #"{"id": "flag","#,
        with: #"{"id": "double", "data": {"kind": "multiply", "params": {"b": 2}}}, {"id": "flag","#
      )
      .replacingOccurrences(
        of: #""targetNodeID": "perPerson", "targetHandleID": "a"}"#,
        with:
          #""targetNodeID": "perPerson", "targetHandleID": "a"}, {"id": "e8", "sourceNodeID": "total", "sourceHandleID": "result", "targetNodeID": "double", "targetHandleID": "a"}"#
      )
    #expect(added.contains("\"e8\""))
    try added.write(to: served.file, atomically: true, encoding: .utf8)
    served.session.reload()
    var sawStructure = false
    var pass: JSONValue?
    while let event = await Self.event(events) {
      if event["ran"] == nil, event["structure"] != nil { sawStructure = true }
      if event["ran"] != nil, case .integer(let revision)? = event["revision"], case .integer(let old)? = before,
        revision > old
      {
        pass = event
        break
      }
    }
    #expect(Self.strings(pass?["ran"]) == ["double"], "only the new node ran")
    #expect(pass?["values"]?["double"]?["result"] == "120")
    if !sawStructure { #expect(await Self.event(events)?["structure"] != nil, "the pages are told to redraw") }
    let picture = try await served.request("GET", "/graph.svg")
    #expect(picture?.body.contains("data-node=\"double\"") == true)
    #expect(picture?.body.contains("result = 120") == true)
  }
}

extension JSONValue {
  subscript(key: String) -> JSONValue? { objectValue?[key] }
}
