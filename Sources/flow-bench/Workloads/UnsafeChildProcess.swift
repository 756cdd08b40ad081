#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program as a child process and reports its wall time and its own peak resident set
/// (`wait4`'s rusage, per child, not the maximum over all children as `RUSAGE_CHILDREN` is).
///
/// Invariants: the C strings passed to `posix_spawn` are made by `strdup`, live until the call
/// returns, and are freed exactly once; the argv array ends with a null pointer; stdout and
/// stderr of the child go to /dev/null (the bench reads its output file instead).
enum UnsafeChildProcess {
  struct Outcome {
    var status: Int32
    var seconds: Double
    var peakRSSMegabytes: Double
  }

  static func run(_ program: String, _ arguments: [String]) -> Outcome? {
    let all = [program] + arguments
    var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) }
    argv.append(nil)
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = Harness.now()
    let spawned = argv.withUnsafeMutableBufferPointer { buffer in
      posix_spawn(&pid, program, &actions, nil, buffer.baseAddress!, environ)
    }
    guard spawned == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { return nil }
    let seconds = Double(Harness.now() - start) / 1e9
    let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Outcome(status: exited, seconds: seconds, peakRSSMegabytes: Double(usage.ru_maxrss) / 1024)
  }
}
