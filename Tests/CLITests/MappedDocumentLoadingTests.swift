import Foundation
import Testing
@testable import FlowCommandLine
import FlowGraph
import FlowTestSupport

/// `flow` reads a regular file into a mapping whose pages the parser releases behind itself
/// (`UnsafeDocumentBytes`); it must load every document exactly as `FlowDocument(jsonBytes:)`
/// does, and fail with exactly its messages.
@Suite struct MappedDocumentLoadingTests {
  /// A random document: nodes and edges with every optional field present or absent, long
  /// strings (so the text spans many pages), sometimes a bad value or a cut-short end.
  static func randomDocument(_ random: inout SeededRandom) -> String {
    func maybe(_ text: String) -> String { random.next() % 2 == 0 ? text : "" }
    let long = String(repeating: "ä-long-label ", count: Int(random.next() % 400))
    let nodeCount = Int(random.next() % 60) + 1
    let nodes = (0..<nodeCount).map { index in
      "{\"id\": \"n\(index)\"" + maybe(", \"position\": [\(index), 2.5]") + maybe(", \"size\": [10, 20]")
        + ", \"data\": {\"kind\": \"number\"" + maybe(", \"params\": {\"value\": \(index)}")
        + maybe(", \"label\": \"\(long)\"")
        + maybe(", \"note\": {\"x\": [1, null, true]}") + "}"
        + maybe(", \"parentID\": \"n0\"") + maybe(", \"isSelected\": true") + maybe(", \"isDraggable\": false")
        + maybe(", \"acceptsChildren\": true") + maybe(", \"zIndex\": 3") + maybe(", \"phase\": {\"normal\": {}}")
        + maybe(", \"persistence\": \"transient\"")
        + maybe(", \"handles\": [{\"id\": \"value\", \"type\": \"source\", \"position\": \"right\"}]")
        + (random.next() % 40 == 0 ? ", \"zIndex\": 0.5" : "") + "}"
    }
    let edges = (1..<nodeCount).map { index in
      "{\"id\": \"e\(index)\", \"sourceNodeID\": \"n\(index - 1)\", \"targetNodeID\": \"n\(index)\""
        + maybe(", \"sourceHandleID\": \"value\"") + maybe(", \"targetHandleID\": \"value\"")
        + maybe(", \"label\": \"\(long)\"") + maybe(", \"pathType\": \"straight\"") + maybe(", \"isSelected\": true")
        + (random.next() % 40 == 0 ? ", \"pathType\": \"wavy\"" : "") + "}"
    }
    var text =
      "{\"nodes\": [\(nodes.joined(separator: ", "))], \"edges\": [\(edges.joined(separator: ",\n"))]"
      + maybe(", \"viewport\": {\"offset\": [1, 2], \"zoom\": 2}") + "}"
    if random.next() % 10 == 0 { text.removeLast(Int(random.next() % 30) + 1) }
    return text
  }

  /// A load's outcome: the document, or the message `flow` prints.
  enum Outcome: Equatable {
    case success(FlowDocument)
    case failure(String)
  }

  /// How `FlowDocument(jsonBytes:)` loads the bytes.
  static func plainOutcome(_ bytes: [UInt8], file: String) -> Outcome {
    do { return .success(try FlowDocument(jsonBytes: bytes)) } catch {
      return .failure(CommandFailure.load(error, file: file).lines.joined(separator: "\n"))
    }
  }

  @Test(arguments: 0..<60)
  func loadsLikeThePlainPath(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let text = Self.randomDocument(&random)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("flow-mapped-\(UUID().uuidString).json")
      .path
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)))
    let expected = Self.plainOutcome(Array(text.utf8), file: file)
    // Releasing after every element: the parser must never read a released page.
    guard case .success(let bytes)? = UnsafeDocumentBytes.load(file, limit: DocumentLoading.maximumDocumentSize) else {
      Issue.record("a regular file is read through a mapping")
      return
    }
    let mapped = bytes.parseReleasing(step: 1)
    switch expected {
    case .success(let document): #expect(mapped == document)
    case .failure: #expect(mapped == nil)
    }
    // What `flow` loads: the same document, or the same message.
    let loaded: Outcome
    do { loaded = .success(try DocumentLoading.document(file)) } catch {
      loaded = .failure(error.lines.joined(separator: "\n"))
    }
    #expect(loaded == expected)
  }

  @Test func aFileOverTheLimitIsRefusedBeforeReading() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("flow-mapped-\(UUID().uuidString).json")
      .path
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x20, count: 2_000)))
    guard case .failure(.tooLarge(let limit))? = UnsafeDocumentBytes.load(file, limit: 1_000) else {
      Issue.record("expected tooLarge")
      return
    }
    #expect(limit == 1_000)
  }

  @Test func anEmptyFileOrAFolderIsReadAsAStream() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("flow-mapped-\(UUID().uuidString).json")
      .path
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    #expect(UnsafeDocumentBytes.load(file, limit: 1_000).map { _ in true } == nil)
    #expect(
      UnsafeDocumentBytes.load(FileManager.default.temporaryDirectory.path, limit: 1_000).map { _ in true } == nil)
  }
}
