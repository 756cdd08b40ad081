// Invariants: the only unsafe code here is the termios calls and `read(2)` into a local
// buffer of known size. `RawTerminal.enter()` saves the settings it changes and `restore()`
// puts exactly those back (idempotent); the calculator restores them before it exits, on end of
// input, on `quit` and on a failed read. Raw mode turns off echo, canonical input and signal
// keys only (output processing stays on, so "\n" still moves to the next line).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal on standard input switched to raw mode for `flow calc`'s line editor.
final class RawTerminal {
  private var saved = termios()
  private var isRaw = false
  let descriptor: Int32

  init(descriptor: Int32 = 0) { self.descriptor = descriptor }

  /// Whether `descriptor` is a terminal.
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Switches to raw mode; `false` if the terminal refused (the caller falls back to lines).
  func enter() -> Bool {
    guard !isRaw, tcgetattr(descriptor, &saved) == 0 else { return isRaw }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(descriptor, TCSADRAIN, &raw) == 0 else { return false }
    isRaw = true
    return true
  }

  /// Puts the saved settings back (idempotent).
  func restore() {
    guard isRaw else { return }
    _ = tcsetattr(descriptor, TCSADRAIN, &saved)
    isRaw = false
  }

  /// Up to 256 bytes as they arrive; `nil` at end of input or on an error other than EINTR.
  func read() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count > 0 { return Array(buffer[0..<count]) }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  deinit { restore() }
}

/// `read(2)` (a free function: `RawTerminal.read()` hides the name inside the class).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
  Glibc.read(descriptor, buffer, count)
  #else
  Darwin.read(descriptor, buffer, count)
  #endif
}
