import Foundation
import FlowRuntime

/// `lines`: emits each line of a file (without its newline), numbered from 1; finished at the
/// end of the file. `"-"` reads standard input. The path is resolved against the document's
/// folder under the host's file-access policy. The file is streamed in chunks, so a large
/// file never sits in memory. A restored node resumes after the line it saved.
struct LinesNode: NodeKind {
  var name: String { "lines" }
  var summary: String { "live source: emits each line of a file (param path; \"-\" is stdin) with its number" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "path", .string, required: true,
        summary: "the file to read, relative to the document's folder (\"-\": standard input)",
        fileAccess: .read)
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let path = parameters.string("path") ?? ""
    guard !path.isEmpty else { throw NodeConfigurationError(parameter: "path", reason: "must not be empty") }
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("line", .string), PortDeclaration("number", .integer)],
      evaluator: LiveNodeEvaluator(), live: .source(Source(file: FileParameter(parameters))))
  }

  struct Source: LiveSource {
    let file: FileParameter
    var initialState: Value { .integer(0) }

    func restore(_ saved: Value) throws(NodeError) -> Value {
      guard let number = saved.integerValue, number >= 0 else {
        throw NodeError("expected the number of the last line read (a whole number ≥ 0), found \(saved)")
      }
      return .integer(number)
    }

    func run(from state: Value, _ emitter: LiveEmitter) async throws {
      let skip = state.integerValue ?? 0
      let reader: ChunkedLineReader
      if file.path == "-" {
        reader = ChunkedLineReader(handle: FileHandle.standardInput, closes: false)
      } else if file.isGzip {
        reader = ChunkedLineReader(bytes: try file.read())
      } else {
        let opened = try file.open()
        let descriptor = dup(opened.descriptor)
        guard descriptor >= 0 else { throw NodeError("cannot open '\(file.path)' for reading") }
        reader = ChunkedLineReader(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), closes: true)
      }
      defer { reader.close() }
      var number: Int64 = 0
      while let line = try reader.nextLine() {
        try Task.checkCancellation()
        number += 1
        if number <= skip { continue }
        try await emitter.emit([.string(line), .integer(number)], state: .integer(number))
      }
    }
  }
}

extension LinesNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.live) }
}
