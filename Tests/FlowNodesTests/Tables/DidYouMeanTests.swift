import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Messages that name what the user wrote (issue 17, deliverable 5): the formula and character
/// of a `derive` error, and a did-you-mean for a misspelt column or param.
@Suite struct DidYouMeanTests {
  static let weather = try! Table([
    ("year", .integers([2012, 2013])), ("precipitation", .numbers([0.5, 1.25])), ("weather", .strings(["rain", "sun"]))
  ])

  @Test func aDeriveTypeErrorNamesTheColumnsFormulaAndTheCharacter() throws {
    var pipeline = try TablePipeline("derive", ["columns": ["total": "year * weather"]])
    #expect(
      try pipeline.run(Self.weather).failure
        == "formula for column 'total', at character 6: '*' needs numbers, got integer and string")
  }

  @Test func aMisspeltColumnSuggestsTheClosest() throws {
    var derive = try TablePipeline("derive", ["columns": ["next": "yaer + 1"]])
    #expect(
      try derive.run(Self.weather).failure
        == "formula for column 'next': no column 'yaer' in the table (did you mean 'year'?)")
    var filter = try TablePipeline("filter", ["where": "precipitaton > 1"])
    #expect(
      try filter.run(Self.weather).failure == "no column 'precipitaton' in the table (did you mean 'precipitation'?)")
    // Far from every column: the list of columns instead.
    var far = try TablePipeline("derive", ["columns": ["x": "temperature"]])
    #expect(
      try far.run(Self.weather).failure
        == "formula for column 'x': no column 'temperature' in the table (columns: year, precipitation, weather)")
  }

  private func problems(_ kind: String, _ params: JSONObject) -> [ParameterProblem] {
    guard
      case .failure(.invalidParameters(let problems)) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: kind, params: params))
    else { return [] }
    return problems
  }

  @Test func aMisspeltParamSuggestsTheClosest() {
    // `no` for the required `on`: reported as the typo, not as a missing `on`.
    let join = problems("join", ["no": ["k"]])
    #expect(join.map(\.parameter) == ["no"])
    #expect(join.first?.reason == "is not a param of kind 'join' (did you mean 'on'?)")
    let groupBy = problems("groupBy", ["by": ["g"], "agregate": ["n": "count()"]])
    #expect(groupBy.first?.reason == "is not a param of kind 'groupBy' (did you mean 'aggregate'?)")
    // An input set by a param is a candidate too; a far-off name still lists the known ones.
    #expect(problems("add", ["aa": 1]).first?.reason == "is not a param of kind 'add' (did you mean 'a'?)")
    #expect(problems("number", ["colour": 1]).first?.reason == "is not a param of kind 'number' (known: value)")
    #expect(problems("join", ["zzz": 1]).map(\.parameter) == ["on"])
  }
}
