import Foundation

/// A seeded CSV with the schema and size of the NYC flights table (nycflights13: 336,776 rows,
/// 19 columns, NA cells where a flight was cancelled), written in chunks so the generator
/// never holds the whole file.
enum W9Flights {
  static let rows = 336_776
  static let header =
    "year,month,day,dep_time,sched_dep_time,dep_delay,arr_time,sched_arr_time,arr_delay,carrier,flight,tailnum,origin,dest,air_time,distance,hour,minute,time_hour"
  static let carriers = ["UA", "B6", "EV", "DL", "AA", "MQ", "US", "9E", "WN", "VX", "FL", "AS", "F9", "YV", "HA", "OO"]
  static let origins = ["EWR", "JFK", "LGA"]

  /// A splitmix64 generator, so the file is the same on every run.
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }

  /// Writes the file at `path` and returns its size in bytes.
  static func write(to path: String, seed: UInt64 = 13) throws -> Int {
    var random = Random(state: seed)
    let destinations = (0..<105).map { index -> String in
      let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
      return String([letters[index % 26], letters[(index / 26 + index * 7) % 26], letters[(index * 11 + 3) % 26]])
    }
    let distances = (0..<105).map { _ in 80 + random.below(4900) }
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
    defer { try? handle.close() }
    var chunk = header + "\n"
    var total = 0
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    for _ in 0..<rows {
      let month = 1 + random.below(12), day = 1 + random.below(28)
      let hour = 5 + random.below(19), minute = random.below(60)
      let scheduled = hour * 100 + minute
      let cancelled = random.below(40) == 0
      let delay = random.below(10) < 7 ? random.below(20) - 10 : random.below(240) - 20
      let departure = (scheduled + delay + 2400) % 2400
      let airTime = 30 + random.below(600)
      let scheduledArrival = (scheduled + airTime + 40) % 2400
      let arrivalDelay = delay + random.below(30) - 15
      let destination = random.below(destinations.count)
      var line = "2013,\(month),\(day),"
      line +=
        cancelled
        ? "NA,\(scheduled),NA,NA,\(scheduledArrival),NA,"
        : "\(departure),\(scheduled),\(delay),\((scheduledArrival + delay + 2400) % 2400),\(scheduledArrival),\(arrivalDelay),"
      line += "\(carriers[random.below(carriers.count)]),\(1 + random.below(6000)),"
      line +=
        random.below(140) == 0
        ? "NA," : "N\(100 + random.below(900))\(["UA", "JB", "EV", "DL", "AA"][random.below(5)]),"
      line += "\(origins[random.below(3)]),\(destinations[destination]),"
      line += cancelled ? "NA," : "\(airTime),"
      line += "\(distances[destination]),\(hour),\(minute),2013-\(two(month))-\(two(day)) \(two(hour)):00:00\n"
      chunk += line
      if chunk.utf8.count > 1 << 20 {
        total += chunk.utf8.count
        handle.write(Data(chunk.utf8))
        chunk = ""
      }
    }
    total += chunk.utf8.count
    handle.write(Data(chunk.utf8))
    return total
  }
}
