import Dispatch
import FlowGraph
import FlowHTTP
import Foundation
import Testing
import FlowHTTPTestSupport

/// `flow serve` as users run it: the URL on stdout, the page served, and SIGINT or SIGTERM
/// ending it cleanly (exit status 0) after the running pass.
@Suite struct ServeProcessTests {
  /// An empty document: where an editor starts.
  static let empty = #"{"nodes": [], "edges": []}"#

  @Test(arguments: ["interrupt", "terminate"], [ServeProtocolTests.calculator, Self.empty])
  func servesItsURLAndStopsCleanlyOnASignal(_ how: String, document: String) throws {
    guard let binary = FlowProcess.binary else { Issue.record("the flow binary is missing"); return }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-serve-process-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("calc.flow.json")
    try document.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", file.path, "--port", "0"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A hang fails the test instead of blocking the suite.
    let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    defer { watchdog.cancel() }
    var printed = ""
    while !printed.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      printed += String(decoding: chunk, as: UTF8.self)
    }
    let match = printed.firstMatch(of: /^flow serve: http:\/\/127\.0\.0\.1:(\d+)\/\n/)
    #expect(match != nil, "printed \(printed)")
    guard let match, let port = UInt16(match.1) else {
      process.terminate()
      return
    }
    let client = try HTTPClientSocket(port: port)
    client.send("GET /state.json HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
    let response = client.response()
    #expect(response?.status == 200)
    let state = response.flatMap { try? JSONValue.parse(Array($0.body.utf8)) }
    if document == Self.empty {
      #expect(state?["outputs"] == .object([:]))
    } else {
      #expect(state?["outputs"]?["total"]?["result"] == .integer(60))
    }
    if how == "interrupt" { process.interrupt() } else { process.terminate() }
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(client.receiveAll().isEmpty, "the keep-alive connection ends with the server")
  }
}
