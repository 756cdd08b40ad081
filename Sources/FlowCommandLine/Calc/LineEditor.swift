/// `flow calc`'s line editor: the line, the cursor and the history, as a pure state machine.
/// `handle(_:)` applies one key and says what the terminal must do; `CalcLineReader` reads the
/// keys and draws. Control characters never enter the line (so none reach the terminal).
///
/// Invariants: `0 <= cursor <= line.count`; `line.count <= lineLimit`;
/// `history.count <= historyLimit`; while browsing, `browsing` indexes `history`.
struct LineEditor {
  /// What the terminal does after a key.
  enum Action: Equatable {
    /// Nothing visible changed.
    case none
    /// Draw the line again.
    case redraw
    /// The user pressed Enter: run this line.
    case submit(String)
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-C: the line was abandoned.
    case cancelled
  }

  private(set) var line: [Character] = []
  private(set) var cursor = 0
  /// Earlier lines, oldest first.
  private(set) var history: [String]
  /// The history entry shown (`nil`: the line being typed).
  private(set) var browsing: Int?
  /// The line being typed, kept while browsing the history.
  private var draft: [Character] = []
  let historyLimit: Int
  let lineLimit: Int

  init(history: [String] = [], historyLimit: Int = 1_000, lineLimit: Int = 16_384) {
    self.historyLimit = max(0, historyLimit)
    self.lineLimit = max(1, lineLimit)
    self.history = Array(history.suffix(self.historyLimit))
  }

  /// The line as text.
  var text: String { String(line) }

  mutating func handle(_ key: TerminalKey) -> Action {
    defer { _checkInvariants() }
    switch key {
    case .character(let character):
      guard line.count < lineLimit, character.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
      else {
        return .none
      }
      line.insert(character, at: cursor)
      cursor += 1
    case .left:
      guard cursor > 0 else { return .none }
      cursor -= 1
    case .right:
      guard cursor < line.count else { return .none }
      cursor += 1
    case .home: cursor = 0
    case .end: cursor = line.count
    case .backspace:
      guard cursor > 0 else { return .none }
      line.remove(at: cursor - 1)
      cursor -= 1
    case .delete:
      guard cursor < line.count else { return .none }
      line.remove(at: cursor)
    case .killToEnd: line.removeSubrange(cursor...)
    case .killToStart:
      line.removeSubrange(..<cursor)
      cursor = 0
    case .killWord:
      var start = cursor
      while start > 0, line[start - 1] == " " { start -= 1 }
      while start > 0, line[start - 1] != " " { start -= 1 }
      line.removeSubrange(start..<cursor)
      cursor = start
    case .up: return showHistory(browsing.map { $0 - 1 } ?? history.count - 1)
    case .down:
      guard let browsing else { return .none }
      return showHistory(browsing + 1)
    case .enter:
      let submitted = text
      remember(submitted)
      reset()
      return .submit(submitted)
    case .endOfInput:
      guard line.isEmpty else { return handle(.delete) }
      return .endOfInput
    case .interrupt:
      reset()
      return .cancelled
    case .redraw: return .redraw
    case .unknown: return .none
    }
    return .redraw
  }

  /// Shows history entry `index` (past the newest: the draft again).
  private mutating func showHistory(_ index: Int) -> Action {
    guard index >= 0, !history.isEmpty else { return .none }
    if browsing == nil { draft = line }
    if index >= history.count {
      browsing = nil
      line = draft
    } else {
      browsing = index
      line = Array(history[index])
    }
    cursor = line.count
    return .redraw
  }

  /// Adds a submitted line to the history (not blank ones, nor a repeat of the newest).
  private mutating func remember(_ submitted: String) {
    guard historyLimit > 0, !submitted.allSatisfy(\.isWhitespace), history.last != submitted else { return }
    history.append(submitted)
    if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
  }

  private mutating func reset() {
    line = []
    cursor = 0
    browsing = nil
    draft = []
  }

  /// What to write to redraw the line after `prompt`: back to the start of the row, the prompt
  /// and the line, erase to the end, then back to the cursor.
  func rendering(prompt: String) -> String {
    var text = "\r" + prompt + String(line) + "\u{1B}[K"
    let back = line.count - cursor
    if back > 0 { text += "\u{1B}[\(back)D" }
    return text
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition((0...line.count).contains(cursor), "Internal inconsistency: cursor \(cursor) outside the line")
    precondition(line.count <= lineLimit, "Internal inconsistency: line longer than its limit")
    precondition(history.count <= historyLimit, "Internal inconsistency: history longer than its limit")
    if let browsing {
      precondition(history.indices.contains(browsing), "Internal inconsistency: browsing outside the history")
    }
    #endif
  }
}
