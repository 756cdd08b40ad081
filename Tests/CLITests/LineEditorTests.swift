import FlowTestSupport
import Testing
@testable import FlowCommandLine

/// `flow calc`'s line editor: keys decoded from terminal bytes, and the editing state machine,
/// against a simple model (a string and a cursor) over random key sequences.
@Suite struct LineEditorTests {
  static func type(_ text: String, into editor: inout LineEditor) {
    for character in text { _ = editor.handle(.character(character)) }
  }

  @Test func decodesArrowsHomeEndDeleteAndControlKeys() {
    var decoder = KeyDecoder()
    let bytes: [UInt8] =
      Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF\u{1B}[3~\u{1B}[1~\u{1B}[4~".utf8)
      + [0x01, 0x05, 0x0B, 0x15, 0x17, 0x7F, 0x08, 0x0D, 0x03, 0x04]
    #expect(
      decoder.keys(from: bytes) == [
        .up, .down, .right, .left, .home, .end, .home, .end, .delete, .home, .end,
        .home, .end, .killToEnd, .killToStart, .killWord, .backspace, .backspace,
        .enter, .interrupt, .endOfInput
      ])
    #expect(decoder.pending.isEmpty)
  }

  @Test func sequencesSplitAcrossReadsWaitForTheirEnd() {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: [0x1B]).isEmpty)
    #expect(decoder.keys(from: Array("[".utf8)).isEmpty)
    #expect(decoder.keys(from: Array("Ax".utf8)) == [.up, .character("x")])
    let euro = Array("€".utf8)
    #expect(decoder.keys(from: euro.prefix(2)).isEmpty)
    #expect(decoder.keys(from: euro.suffix(1)) == [.character("€")])
    // An endless CSI sequence is dropped after 16 bytes rather than buffered forever.
    let keys = decoder.keys(from: [0x1B, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 40))
    #expect(keys.first == .unknown)
    #expect(decoder.pending.count < 40)
  }

  @Test func editingKeysChangeTheLineAtTheCursor() {
    var editor = LineEditor()
    Self.type("node a numbr", into: &editor)
    _ = editor.handle(.left)
    Self.type("e", into: &editor)
    #expect(editor.text == "node a number")
    _ = editor.handle(.home)
    _ = editor.handle(.delete)
    #expect(editor.text == "ode a number" && editor.cursor == 0)
    _ = editor.handle(.end)
    _ = editor.handle(.killWord)
    #expect(editor.text == "ode a ")
    _ = editor.handle(.left)
    _ = editor.handle(.killToStart)
    #expect(editor.text == " " && editor.cursor == 0)
    _ = editor.handle(.killToEnd)
    #expect(editor.text.isEmpty)
    #expect(editor.handle(.endOfInput) == .endOfInput)
  }

  @Test func historyWalksBackAndForthAndKeepsTheDraft() {
    var editor = LineEditor(history: ["node a number value=1"])
    Self.type("show", into: &editor)
    #expect(editor.handle(.enter) == .submit("show"))
    Self.type("dra", into: &editor)
    _ = editor.handle(.up)
    #expect(editor.text == "show")
    _ = editor.handle(.up)
    #expect(editor.text == "node a number value=1")
    #expect(editor.handle(.up) == .none)  // nothing older
    _ = editor.handle(.down)
    _ = editor.handle(.down)
    #expect(editor.text == "dra")
    // Repeats and blank lines are not kept; the history is bounded.
    _ = editor.handle(.enter)
    Self.type("dra", into: &editor)
    _ = editor.handle(.enter)
    _ = editor.handle(.enter)
    #expect(editor.history == ["node a number value=1", "show", "dra"])
    var bounded = LineEditor(historyLimit: 2)
    for line in ["a", "b", "c"] {
      Self.type(line, into: &bounded)
      _ = bounded.handle(.enter)
    }
    #expect(bounded.history == ["b", "c"])
  }

  @Test func controlCharactersNeverEnterTheLine() {
    var editor = LineEditor()
    for character: Character in ["\u{07}", "\u{1B}", "\u{9B}", "\u{7F}", "a"] {
      _ = editor.handle(.character(character))
    }
    #expect(editor.text == "a")
    #expect(editor.handle(.interrupt) == .cancelled)
    #expect(editor.text.isEmpty)
  }

  @Test func renderingRedrawsThePromptAndPutsTheCursorBack() {
    var editor = LineEditor()
    Self.type("abc", into: &editor)
    _ = editor.handle(.left)
    #expect(editor.rendering(prompt: "> ") == "\r> abc\u{1B}[K\u{1B}[1D")
  }

  /// Random keys against a model: a string and a cursor.
  @Test(arguments: 0..<20) func randomKeysMatchASimpleModel(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var editor = LineEditor()
    var model: [Character] = []
    var cursor = 0
    let keys: [TerminalKey] = [
      .left, .right, .home, .end, .backspace, .delete, .killToEnd, .killToStart, .killWord,
      .character("x"), .character(" "), .character("é")
    ]
    for _ in 0..<300 {
      let key = keys[Int(random.next() % UInt64(keys.count))]
      _ = editor.handle(key)
      switch key {
      case .character(let c):
        model.insert(c, at: cursor)
        cursor += 1
      case .left: cursor = max(0, cursor - 1)
      case .right: cursor = min(model.count, cursor + 1)
      case .home: cursor = 0
      case .end: cursor = model.count
      case .backspace: if cursor > 0 { model.remove(at: cursor - 1); cursor -= 1 }
      case .delete: if cursor < model.count { model.remove(at: cursor) }
      case .killToEnd: model.removeSubrange(cursor...)
      case .killToStart: model.removeSubrange(..<cursor); cursor = 0
      case .killWord:
        var start = cursor
        while start > 0, model[start - 1] == " " { start -= 1 }
        while start > 0, model[start - 1] != " " { start -= 1 }
        model.removeSubrange(start..<cursor); cursor = start
      default: break
      }
      #expect(editor.line == model && editor.cursor == cursor)
    }
  }
}
