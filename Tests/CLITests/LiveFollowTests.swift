import Foundation
import Testing

/// `flow run --live --follow` prints every pass as it completes (Reference.md, "The `flow` command line"), and a run without
/// `--live` says which printed nodes wait for which live sources.
@Suite struct LiveFollowTests {
  static let document = TestPaths.fixture("live/readings.flow.json")

  @Test func followPrintsEachPassWithWhatItChangedInEvaluationOrder() async throws {
    let result = try await FlowProcess.run(["run", Self.document, "--live", "--follow"])
    #expect(result.status == 0 && result.endedCleanly, "\(result)")
    // Pass 4 reads "four": `value` fails, its descendants fail upstream and `seen` still counts;
    // pass 6 doubles 5 again, so `doubled` is cut off and prints nothing.
    #expect(
      result.stdout == """
        -- pass 1 (start)
        -- pass 2 (readings emitted)
        total.total = 3
        doubled.result = 6
        seen.count = 1
        -- pass 3 (readings emitted)
        total.total = 7
        doubled.result = 8
        seen.count = 2
        -- pass 4 (readings emitted)
        seen.count = 3
        doubled ! upstream error from value
        total ! upstream error from value
        value ! not a number: "four"
        -- pass 5 (readings emitted)
        total.total = 12
        doubled.result = 10
        seen.count = 4
        -- pass 6 (readings emitted)
        total.total = 17
        seen.count = 5

        """, "\(result)")
  }

  /// A clock behind the branch an `if` does not take never starts, so the run makes one pass;
  /// with the branch taken it runs to its limit.
  @Test func aClockBehindTheBranchNotTakenNeverStarts() async throws {
    let path = TestPaths.fixture("live/lazy-clock.flow.json")
    let untaken = try await FlowProcess.run(["run", path, "--live", "--follow"])
    #expect(untaken.status == 0 && untaken.endedCleanly, "\(untaken)")
    #expect(untaken.stdout == "-- pass 1 (start)\npick.value = 7\n", "\(untaken)")
    let taken = try await FlowProcess.run(["run", path, "--live", "--follow", "--set", "cond.value=1"])
    #expect(taken.status == 0 && taken.endedCleanly, "\(taken)")
    #expect(
      taken.stdout
        == "-- pass 1 (start)\n-- pass 2 (c emitted)\npick.value = 1\n-- pass 3 (c emitted)\npick.value = 2\n",
      "\(taken)")
  }

  @Test func followWithJSONPrintsOneObjectPerPassAndLine() async throws {
    let result = try await FlowProcess.run([
      "run", Self.document, "--live", "--follow", "--format", "json", "--node", "total",
      "--ticks", "3"
    ])
    // The run stops after "four": `total` has failed, so the status is 1.
    #expect(result.status == 1 && result.endedCleanly, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(result)")  // the start, then three emissions (--ticks 3)
    let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    #expect(objects.map { $0["pass"] as? Int } == [1, 2, 3, 4])
    #expect(objects.map { $0["source"] as? String } == [nil, "readings", "readings", "readings"])
    #expect(
      objects.map { (($0["outputs"] as? [String: Any])?["total"] as? [String: Any])?["total"] as? Int } == [
        nil, 3, 7, nil
      ])
    #expect((objects[3]["errors"] as? [String: String])?["total"] == "upstream error from value")
  }

  @Test func followNeedsLive() async throws {
    let result = try await FlowProcess.run(["run", Self.document, "--follow"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("need --live"))
  }

  @Test func aRunWithoutLiveSaysWhichNodesWaitForWhichSources() async throws {
    let result = try await FlowProcess.run(["run", Self.document])
    #expect(result.status == 0 && result.endedCleanly, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "flow: 'total', 'doubled' and 'seen' wait for the live source 'readings' and printed nothing; flow run --live runs them\n"
    )
  }
}
