import Foundation
import Testing

/// `flow calc` through the built binary, with scripted sessions on piped stdin (no prompt).
@Suite struct CalcCommandTests {
  /// Runs a session and returns what it printed.
  static func session(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> FlowResult {
    let result = try await FlowProcess.run(["calc"], stdin: lines.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.endedCleanly, sourceLocation: sourceLocation)
    return result
  }

  /// The stdout lines printed for each command, split by running the script one prefix at a time
  /// would be slow; instead each test checks whole transcripts or single steps.
  static let build = [
    "node price number value=12.5",
    "node quantity number value=4",
    "node subtotal multiply",
    "connect price.value subtotal.a",
    "connect quantity.value subtotal.b"
  ]

  @Test func eachChangePrintsWhatItRecomputedInOrder() async throws {
    let result = try await Self.session(Self.build)
    #expect(result.stderr.isEmpty, "\(result)")
    #expect(
      result.stdout == """
        price.value = 12.5
        quantity.value = 4
        subtotal.result = 1
        subtotal.result = 12.5
        subtotal.result = 50

        """)
  }

  @Test func changingAValueRecomputesOnlyItsDescendants() async throws {
    let result = try await Self.session(Self.build + ["node other number value=1", "set quantity value=10"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(Array(lines.suffix(3)) == ["other.value = 1", "quantity.value = 10", "subtotal.result = 125"])
  }

  @Test func cutoffShowsAsSilence() async throws {
    // `clamp` = min(max(x, 0), 10): moving x from 50 to 60 leaves clamp at 10, so `after` (behind
    // the cutoff) does not run and prints nothing; `clamp` ran, so it prints.
    let result = try await Self.session([
      "node x number value=50",
      "node clamp expression formula=\"min(max(x, 0), 10)\"",
      "node after add b=1",
      "connect x.value clamp.x",
      "connect clamp.result after.a",
      "set x value=60"
    ])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(Array(lines.suffix(2)) == ["x.value = 60", "clamp.result = 10"])
    #expect(!lines.suffix(2).contains { $0.hasPrefix("after.") })
  }

  @Test func anUnchangedSetPrintsNothing() async throws {
    let base = try await Self.session(Self.build)
    let same = try await Self.session(Self.build + ["set quantity value=4"])
    #expect(same.stdout == base.stdout)
  }

  @Test func failuresPrintTheirMessageAndRecoveryPrintsValues() async throws {
    let result = try await Self.session([
      "node a number value=6", "node zero number value=0", "node q divide", "node twice multiply b=2",
      "connect a.value q.a", "connect zero.value q.b", "connect q.result twice.a",
      "set zero value=3"
    ])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("q ! division by zero"))
    #expect(lines.contains("twice ! upstream error from q"))
    #expect(Array(lines.suffix(3)) == ["zero.value = 3", "q.result = 2", "twice.result = 4"])
  }

  @Test func connectReplacesTheEdgeInThatInputAsOneUndoableChange() async throws {
    let result = try await Self.session(
      Self.build + [
        "node other number value=2",
        "connect other.value subtotal.b",
        "show subtotal",
        "undo",
        "show subtotal"
      ])
    #expect(result.stderr.isEmpty, "\(result)")
    #expect(result.stdout.contains("subtotal.result = 25\n"))
    #expect(result.stdout.contains("    b ← other.value\n"))
    // One undo restores the old edge (the removal and the addition were one batch).
    #expect(
      result.stdout.hasSuffix(
        """
        subtotal.result = 50
        subtotal: multiply
          params: none
          inputs:
            a ← price.value
            b ← quantity.value
          outputs:
            result = 50

        """))
  }

  @Test func undoAndRedoRecomputeWhatTheyChange() async throws {
    let result = try await Self.session(Self.build + ["set price value=1", "undo", "redo", "redo"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(6)) == [
        "price.value = 1", "subtotal.result = 4",
        "price.value = 12.5", "subtotal.result = 50",
        "price.value = 1", "subtotal.result = 4"
      ])
    #expect(result.stderr == "error: nothing to redo\n")
  }

  @Test func disconnectAndDeleteRecomputeTheNodesLeftBehind() async throws {
    let result = try await Self.session(Self.build + ["disconnect subtotal.b", "delete price"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // Unconnected, `b` is multiply's default 1; then `a` too.
    #expect(Array(lines.suffix(2)) == ["subtotal.result = 12.5", "subtotal.result = 1"])
  }

  @Test func rejectedCommandsPrintAnErrorAndTheSessionGoesOn() async throws {
    let result = try await Self.session(
      Self.build + [
        "nod x number",
        "node x ad",
        "node price number",
        "connect subtotal.result price.value",
        "connect subtotal.result subtotal.a",
        "disconnect price.value",
        "set nowhere value=1",
        "set price colour=1",
        "delete nowhere",
        "undo extra",
        "load no-such-file.flow.json",
        "set quantity value=5"
      ])
    GoldenFile.expect(result.stderr, matches: "calc-rejected.stderr.txt")
    let errors = result.stderr.split(separator: "\n")
    #expect(errors.count == 11)
    for line in errors { #expect(line.hasPrefix("error: ")) }
    #expect(result.stdout.hasSuffix("quantity.value = 5\nsubtotal.result = 62.5\n"))
  }

  @Test func showPrintsTheGraphAsCommandsThatRebuildIt() async throws {
    let shown = try await Self.session(Self.build + ["node f expression formula=\"a + b\" b=2", "show"])
    let script = shown.stdout.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("node ") || $0.hasPrefix("connect ")
    }
    #expect(script.count == 6)
    let replayed = try await Self.session(script + ["show"])
    #expect(replayed.stdout.hasSuffix(script.joined(separator: "\n") + "\n"))
  }

  @Test func saveAndLoadRoundTrip() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("calc-\(UUID().uuidString).flow.json")
    defer { try? FileManager.default.removeItem(at: file) }
    let saved = try await Self.session(Self.build + ["save \(file.path)"])
    #expect(saved.stdout.hasSuffix("saved 3 nodes to \(file.path)\n"))
    let run = try await FlowProcess.run(["run", file.path])
    #expect(run.stdout == "subtotal.result = 50\n", "\(run)")
    let loaded = try await Self.session(["load \(file.path)", "show"])
    #expect(loaded.stdout.hasPrefix("price.value = 12.5\nquantity.value = 4\nsubtotal.result = 50\n"))
    #expect(
      loaded.stdout.hasSuffix(
        Self.build.prefix(3).joined(separator: "\n") + "\n"
          + "connect price.value subtotal.a\nconnect quantity.value subtotal.b\n"))
  }

  @Test func aScriptedSessionMatchesItsTranscript() async throws {
    let result = try await Self.session([
      "# a comment, then a blank line", "",
      "node r number value=2",
      "node area expression formula=\"pi * r^2\"",
      "connect r.value area.r",
      "set r value=3",
      "show",
      "show area",
      "undo",
      "quit",
      "set r value=100"
    ])
    GoldenFile.expect(result.stdout, matches: "calc-session.txt")
    #expect(!result.stdout.contains("= 31415"), "nothing after quit runs")
  }

  @Test func connectingIntoAParamFeedsItAndDisconnectingBringsBackTheWrittenValue() async throws {
    let result = try await Self.session([
      "node who text value=\"Ann\"",
      "node greeting text value=\"Hi {name}!\"",
      "node f format template=\"Hello {name}\"",
      "connect who.value f.name",
      "connect greeting.value f.template",
      "disconnect f.template",
      "undo"
    ])
    #expect(result.stderr.isEmpty, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(4)) == ["f.text = Hello Ann", "f.text = Hi Ann!", "f.text = Hello Ann", "f.text = Hi Ann!"],
      "\(result)")
  }
}
