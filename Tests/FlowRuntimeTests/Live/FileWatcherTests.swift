import FlowRuntime
import Testing

@Suite struct FileWatcherTests {
  @Test func aChangeIsAPresentSignatureThatDiffersFromTheLastSeen() {
    var watcher = FileWatcher<[UInt8]>()
    // The first read is a change; the same again is not; a missing file is not; back again is.
    let seen = [[1], [1], [2], nil, [2]].map { watcher.see($0) }
    #expect(seen == [true, false, true, false, true])
    #expect(watcher.last == [2])

    var stamped = FileWatcher<Int>(last: 7)
    let stamps = [7, 8].map { stamped.see($0) }
    #expect(stamps == [false, true])
    #expect(stamped.last == 8)
  }
}
