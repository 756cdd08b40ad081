import FlowGraph
import FlowHTTP
import FlowRuntime
import Foundation

/// Edits from the page, Save, and reloads from disk — all through the store.
extension ServeSession {
  /// `POST /edit` with `{"node": id, "param": name, "value": text or bool}`: sets the param
  /// (or the param of an unconnected input's name; an empty text clears it) through
  /// `FlowStore.updateNode`. A rejection is `{"ok": false, "error": message}` and changes
  /// nothing (status 200: a refused value is an answer, not a failed request, and browsers log
  /// every 4xx as a console error).
  func edit(_ body: [UInt8]) -> HTTPResponse {
    guard case .object(let object)? = try? JSONValue.parse(body),
      case .string(let id)? = object["node"], case .string(let name)? = object["param"], let sent = object["value"]
    else {
      return Self.json(400, ["error": "an edit is {\"node\": id, \"param\": name, \"value\": value}"])
    }
    let store = engine.store
    guard var node = store.node(id: id) else { return Self.rejected(["error": .string("there is no node '\(id)'")]) }
    guard let field = ServeEditable.field(named: name, node: node, store: store, registry: registry) else {
      return Self.rejected(["error": .string("node '\(id)' has no editable param '\(name)'")])
    }
    let value: JSONValue?
    switch Self.value(sent, for: field) {
    case .success(let converted): value = converted
    case .failure(let message): return Self.rejected(["error": .string("\(id).\(name): \(message.text)")])
    }
    node.data.params[name] = value
    do {
      try store.updateNode(node)
    } catch {
      return Self.rejected(["error": .string(error.description)])
    }
    return Self.json(200, ["ok": true, "revision": .integer(Int64(store.revision))])
  }

  static func rejected(_ object: JSONObject) -> HTTPResponse {
    var object = object
    object["ok"] = false
    return json(200, object)
  }

  /// A reason an edit is refused.
  struct EditProblem: Error {
    var text: String
  }

  /// The JSON value a field takes from what the page sent (a text, or a bool for a checkbox);
  /// nil clears an input's param.
  static func value(_ sent: JSONValue, for field: ServeEditable.Field) -> Result<JSONValue?, EditProblem> {
    if field.type == .bool {
      switch sent {
      case .bool: return .success(sent)
      case .string("true"): return .success(.bool(true))
      case .string("false"): return .success(.bool(false))
      default: return .failure(EditProblem(text: "expects true or false"))
      }
    }
    if field.type == .list || field.type == .record {
      // Lists and records as JSON text (or as JSON, from a script); keys keep the order written.
      let noun =
        field.type == .list ? "a JSON list, such as [\"a\", \"b\"]" : "a JSON object, such as {\"name\": \"formula\"}"
      var parsed = sent
      if case .string(let text) = sent {
        if text.trimmingCharacters(in: .whitespaces).isEmpty, field.isInput { return .success(nil) }
        guard let value = try? JSONValue.parse(Array(text.utf8)) else {
          return .failure(EditProblem(text: "expects \(noun)"))
        }
        parsed = value
      }
      switch (field.type, parsed) {
      case (.list, .array), (.record, .object): return .success(parsed)
      default: return .failure(EditProblem(text: "expects \(noun)"))
      }
    }
    guard case .string(let text) = sent else {
      return field.type == .string ? .failure(EditProblem(text: "expects a text")) : .success(sent)
    }
    if field.type == .string { return .success(.string(text)) }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty {
      return field.isInput ? .success(nil) : .failure(EditProblem(text: "expects a number, got nothing"))
    }
    let shown = trimmed.count > 40 ? String(trimmed.prefix(39)) + "…" : trimmed
    guard let parsed = try? JSONValue.parse(Array(trimmed.utf8)) else {
      return .failure(
        EditProblem(text: "expects \(field.type == .integer ? "a whole number" : "a number"), got '\(shown)'"))
    }
    switch (field.type, parsed) {
    case (.integer, .integer), (.number, .integer), (.number, .number): return .success(parsed)
    case (.integer, _): return .failure(EditProblem(text: "expects a whole number, got '\(shown)'"))
    default: return .failure(EditProblem(text: "expects a number, got '\(shown)'"))
    }
  }

  /// `POST /save`: the store's document, written over the served file atomically.
  func save() -> HTTPResponse {
    let document = engine.store.export()
    do {
      try document.write(to: file)
    } catch {
      return Self.json(500, ["error": .string("cannot write '\(file)': \(error.reason)")])
    }
    state.withLock { $0.life.watcher }?.noteCurrentStamp()
    return Self.json(200, ["ok": true, "path": .string(file)])
  }

  /// The file changed on disk: read it and apply the difference to the store (one batch, one
  /// undo step), so only what changed reruns. A file that does not load or validate changes
  /// nothing and is reported to the pages.
  func reload() {
    guard !state.withLock({ $0.isStopping }) else { return }
    let document: FlowDocument
    do { document = try DocumentLoading.document(file) } catch {
      publish(.object(["reloadError": .string(error.lines.joined(separator: "; "))]))
      return
    }
    do {
      let changed = try ServeDocumentDiff.apply(document, to: engine.store)
      if changed { publish(.object(["reloaded": true])) }
    } catch {
      publish(.object(["reloadError": .string(error.description)]))
    }
  }
}
