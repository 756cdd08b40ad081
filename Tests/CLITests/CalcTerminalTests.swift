import Foundation
import Testing

/// `flow calc` at a terminal (a pseudo-terminal): arrows edit and recall lines instead of
/// arriving as `^[[A`, and the history is kept in `~/.flow_calc_history` unless `--no-history`.
@Suite struct CalcTerminalTests {
  /// Starts `flow calc` on a pseudo-terminal with `HOME` set to `home`.
  static func start(_ arguments: [String], home: URL) throws -> (Process, PseudoTerminal) {
    guard let binary = FlowProcess.binary else { throw FlowProcessError.binaryNotFound }
    guard let terminal = PseudoTerminal() else { throw FlowProcessError.binaryNotFound }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["calc"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    process.environment = environment
    let handle = FileHandle(fileDescriptor: terminal.subordinate, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return (process, terminal)
  }

  /// Waits for the child to exit (killing it after a minute: a hang fails the test, never the suite).
  static func waitForExit(_ process: Process) -> Int32 {
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return -1
    }
    return process.terminationStatus
  }

  static func temporaryHome() throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("flow-calc-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    return home
  }

  @Test func arrowsRecallAndEditTheLineAndTheHistoryIsSaved() throws {
    let home = try Self.temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let (process, terminal) = try Self.start([], home: home)
    defer { terminal.close() }
    _ = terminal.read(until: "> ")
    terminal.type(Array("node a number value=2\r".utf8))
    #expect(terminal.read(until: "a.value = 2").contains("a.value = 2"))
    terminal.type(Array("node b add b=3\rconnect a.value b.a\r".utf8))
    #expect(terminal.read(until: "b.result = 5").contains("b.result = 5"))
    terminal.type(Array("set a value=4\r".utf8))
    #expect(terminal.read(until: "b.result = 7").contains("b.result = 7"))
    // Up recalls `set a value=4`; Backspace and 5 make it `set a value=5`.
    terminal.type([0x1B, UInt8(ascii: "["), UInt8(ascii: "A"), 0x7F] + Array("5\r".utf8))
    let edited = terminal.read(until: "b.result = 8")
    #expect(edited.contains("b.result = 8"), "\(edited)")
    #expect(!edited.contains("unknown command"))
    // Home, Ctrl-K, then a new command on the same line.
    terminal.type(Array("garbage".utf8) + [0x01, 0x0B] + Array("show b\r".utf8))
    #expect(terminal.read(until: "b: add").contains("b: add"))
    terminal.type(Array("quit\r".utf8))
    #expect(Self.waitForExit(process) == 0)
    let history = try String(contentsOf: home.appendingPathComponent(".flow_calc_history"), encoding: .utf8)
    #expect(
      history == """
        node a number value=2
        node b add b=3
        connect a.value b.a
        set a value=4
        set a value=5
        show b
        quit

        """)
  }

  @Test func noHistoryReadsAndWritesNoFile() throws {
    let home = try Self.temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    try "node kept number value=1\n".write(
      to: home.appendingPathComponent(".flow_calc_history"), atomically: true, encoding: .utf8)
    let (process, terminal) = try Self.start(["--no-history"], home: home)
    defer { terminal.close() }
    _ = terminal.read(until: "> ")
    // Up finds no history: the line stays empty and Enter does nothing.
    terminal.type([0x1B, UInt8(ascii: "["), UInt8(ascii: "A")] + Array("\rnode x number value=9\r".utf8))
    let output = terminal.read(until: "x.value = 9")
    #expect(output.contains("x.value = 9") && !output.contains("kept"))
    terminal.type([0x04])  // Ctrl-D on an empty line ends the session
    #expect(Self.waitForExit(process) == 0)
    let history = try String(contentsOf: home.appendingPathComponent(".flow_calc_history"), encoding: .utf8)
    #expect(history == "node kept number value=1\n")
  }
}
