import FlowGraph
import FlowHTTP

/// The life of a `ServeSession`, as a pure machine over what it must stop: `starting`
/// (following the engine and the store, the server not yet bound), `serving` (the server and
/// the file watcher run), `stopping` (no more reloads; what ran has been handed back to be
/// stopped). Kept in the session's one `Locked` state; each transition returns what the
/// session must do, which it does outside the lock.
struct ServeSessionLife: Sendable {
  enum Phase: Sendable, Equatable {
    case starting
    case serving
    case stopping
  }

  /// What a running session holds and stops, in this order: the watcher, then (after the
  /// running pass) the server, the store observation and the tasks.
  struct Running: Sendable {
    var watcher: ServeFileWatcher?
    var server: HTTPServer?
    var observation: FlowStore.Observation?
    var tasks: [Task<Void, Never>] = []
  }

  /// What the session does after a transition, outside the lock.
  enum Action: Sendable {
    /// Start polling the file.
    case startWatcher(ServeFileWatcher)
    /// Stop these at once: the session stopped while they were being started.
    case stop(Running)
  }

  private(set) var phase = Phase.starting
  private(set) var running = Running()

  /// The server, while one was started (kept after stopping, so its port stays known).
  var server: HTTPServer? { running.server }
  var watcher: ServeFileWatcher? { running.watcher }

  /// The session follows the store and the engine's reports.
  mutating func following(_ observation: FlowStore.Observation, task: Task<Void, Never>) -> [Action] {
    guard phase == .starting else {
      return [.stop(Running(observation: observation, tasks: [task]))]
    }
    running.observation = observation
    running.tasks.append(task)
    return []
  }

  /// The server is bound (and a watcher made, unless the file is not watched): serving.
  mutating func served(by server: HTTPServer, watcher: ServeFileWatcher?) -> [Action] {
    guard phase == .starting else {
      return [.stop(Running(watcher: watcher, server: server))]
    }
    phase = .serving
    running.server = server
    running.watcher = watcher
    return watcher.map { [.startWatcher($0)] } ?? []
  }

  /// Stopping: everything started is handed back to be stopped, in `Running`'s order (the
  /// server stays known, so its port does).
  mutating func stop() -> Running {
    phase = .stopping
    let stopped = running
    running = Running(server: stopped.server)
    return stopped
  }
}
