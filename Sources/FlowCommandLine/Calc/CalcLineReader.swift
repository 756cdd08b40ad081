import Foundation

/// Reads `flow calc`'s lines from a terminal with line editing (`LineEditor`) and history: the
/// thin executor that reads keys in raw mode, hands them to the editor and draws what it says.
/// The terminal stays raw for the whole session (keys typed or pasted while a command runs wait
/// for the editor, never echoed twice), and `finish()` puts it back.
final class CalcLineReader {
  private let terminal: RawTerminal
  private let draw: @Sendable (String) -> Void
  private var decoder = KeyDecoder()
  /// Keys read but not yet handled: one read may carry several lines (a paste).
  private var queued: [TerminalKey] = []
  private(set) var editor: LineEditor

  init(
    terminal: RawTerminal, history: [String],
    draw: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }
  ) {
    self.terminal = terminal
    self.draw = draw
    editor = LineEditor(history: history)
  }

  /// The next line, or `nil` at end of input (Ctrl-D on an empty line, or the terminal closed).
  /// Falls back to `Swift.readLine` when the terminal refuses raw mode.
  func readLine(prompt: String) -> String? {
    guard terminal.enter() else {
      draw(prompt)
      return Swift.readLine(strippingNewline: true)
    }
    draw(prompt)
    while true {
      if queued.isEmpty {
        guard let bytes = terminal.read() else {
          draw("\n")
          return nil
        }
        queued = decoder.keys(from: bytes)
        continue
      }
      let key = queued.removeFirst()
      switch editor.handle(key) {
      case .none: break
      case .redraw: draw(editor.rendering(prompt: prompt))
      case .submit(let line):
        draw("\n")
        return line
      case .endOfInput:
        draw("\n")
        return nil
      case .cancelled:
        draw("^C\n" + prompt)
      }
    }
  }

  /// Puts the terminal back as it was.
  func finish() { terminal.restore() }
}
