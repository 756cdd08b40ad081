import Foundation
import Testing

/// `flow calc` with an `if`: an edit only the branch not taken sees prints nothing, and
/// flipping the condition brings that branch up to date with the edit it missed.
@Suite struct CalcLazyTests {
  static let build = [
    "node cond number value=1",
    "node a number value=2",
    "node b number value=4",
    "node quarter divide a=1",
    "connect b.value quarter.b",
    "node pick if",
    "connect cond.value pick.condition",
    "connect a.value pick.then",
    "connect quarter.result pick.else"
  ]

  @Test func anEditOnlyANotNeededBranchSeesPrintsNothing() async throws {
    let before = try await CalcCommandTests.session(Self.build)
    let after = try await CalcCommandTests.session(Self.build + ["set b value=5"])
    #expect(after.stderr.isEmpty, "\(after)")
    #expect(after.stdout == before.stdout, "b feeds only the else branch, not taken")
  }

  @Test func flippingTheConditionBringsTheBranchUpToDate() async throws {
    let before = try await CalcCommandTests.session(Self.build + ["set b value=5"])
    let after = try await CalcCommandTests.session(Self.build + ["set b value=5", "set cond value=0"])
    #expect(after.stdout.hasPrefix(before.stdout))
    let printed = after.stdout.dropFirst(before.stdout.count).split(separator: "\n").map(String.init)
    #expect(printed == ["cond.value = 0", "b.value = 5", "quarter.result = 0.2", "pick.value = 0.2"], "\(after)")
  }
}
