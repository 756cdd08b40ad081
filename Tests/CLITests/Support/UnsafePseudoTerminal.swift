// Invariants: `PseudoTerminal` owns both descriptors of one pty pair from `posix_openpt` and
// closes each exactly once (`close()` is idempotent); reads go into a local buffer of known size
// and wait with `poll(2)` for at most the given time, so a test can never hang on the child.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal for driving `flow calc` as a user at a terminal would: the child gets the
/// subordinate side as stdin/stdout/stderr (so `isatty` is true), the test writes key bytes to
/// the main side and reads what the child drew.
final class PseudoTerminal {
  let main: Int32
  let subordinate: Int32
  private var closed = false

  init?() {
    let main = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard main >= 0 else { return nil }
    guard let name = Self.unlockedSubordinateName(main) else {
      closeDescriptor(main)
      return nil
    }
    let subordinate = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard subordinate >= 0 else {
      closeDescriptor(main)
      return nil
    }
    self.main = main
    self.subordinate = subordinate
  }

  /// Unlocks the subordinate of `main` and names it (`unlockpt` + `ptsname`; Glibc does not
  /// export those to Swift, so on Linux the two ioctls they make).
  private static func unlockedSubordinateName(_ main: Int32) -> String? {
    #if os(Linux)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(main, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock) == 0,
      ioctl(main, UInt(0x8004_5430) /* TIOCGPTN */, &number) == 0
    else { return nil }
    return "/dev/pts/\(number)"
    #else
    guard grantpt(main) == 0, unlockpt(main) == 0, let name = ptsname(main) else { return nil }
    return String(cString: name)
    #endif
  }

  /// Writes `text` as the user typing it.
  func type(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(main, $0.baseAddress, $0.count) }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Reads what the child wrote until `text` appears or `seconds` pass (a guard against hangs,
  /// not a timing assertion); returns everything read.
  func read(until text: String, seconds: Int = 60) -> String {
    var collected: [UInt8] = []
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var descriptor = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) >= 0 else { break }
      guard descriptor.revents & Int16(POLLIN) != 0 else {
        if descriptor.revents & Int16(POLLHUP) != 0 { break }
        continue
      }
      let count = buffer.withUnsafeMutableBytes { readDescriptor(main, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      collected += buffer[0..<count]
      if String(decoding: collected, as: UTF8.self).contains(text) { break }
    }
    return String(decoding: collected, as: UTF8.self)
  }

  func close() {
    guard !closed else { return }
    closed = true
    closeDescriptor(main)
    closeDescriptor(subordinate)
  }

  deinit { close() }
}

#if canImport(Glibc)
private func closeDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  Glibc.read(descriptor, buffer, count)
}
#else
private func closeDescriptor(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  Darwin.read(descriptor, buffer, count)
}
#endif
