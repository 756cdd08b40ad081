import FlowGraph
import FlowHTTP
import FlowNodes
import FlowRuntime
import Testing

@testable import FlowCommandLine

@Suite struct ServeSessionLifeTests {
  func server() throws -> HTTPServer {
    try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0)) { _ in .error(404) }
  }

  func observation() throws -> FlowStore.Observation {
    try FlowStore(catalog: NodeKindRegistry.standard, document: FlowDocument()).observe { _ in }.observation
  }

  @Test func startingThenServingThenStoppingHandsBackWhatRuns() throws {
    var life = ServeSessionLife()
    #expect(life.phase == .starting)
    let task = Task<Void, Never> {}
    #expect(life.following(try observation(), task: task).isEmpty)
    let server = try server()
    let watcher = ServeFileWatcher(path: "/nonexistent", interval: .seconds(1)) {}
    let actions = life.served(by: server, watcher: watcher)
    guard actions.count == 1, case .startWatcher(let started) = actions[0] else {
      Issue.record("\(actions)")
      return
    }
    #expect(started === watcher)
    #expect(life.phase == .serving)
    #expect(life.server === server)
    let running = life.stop()
    #expect(life.phase == .stopping)
    #expect(running.watcher === watcher && running.server === server)
    #expect(running.observation != nil && running.tasks.count == 1)
    #expect(life.watcher == nil && life.server === server)  // the port stays known
    server.stop()
  }

  @Test func whatIsStartedAfterStoppingIsStoppedAtOnce() throws {
    var life = ServeSessionLife()
    _ = life.stop()
    let server = try server()
    let actions = life.served(by: server, watcher: nil)
    guard actions.count == 1, case .stop(let late) = actions[0] else {
      Issue.record("\(actions)")
      return
    }
    #expect(late.server === server)
    #expect(life.phase == .stopping && life.server == nil)
    server.stop()
  }

  @Test func servingWithoutAWatcherStartsNothing() throws {
    var life = ServeSessionLife()
    let server = try server()
    #expect(life.served(by: server, watcher: nil).isEmpty)
    #expect(life.phase == .serving)
    server.stop()
  }
}
