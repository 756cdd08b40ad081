import Foundation

/// The W9 floor: what a hand-written program does for the same result — read the file, split
/// each line on commas (the file has no quotes), skip cancelled flights (`dep_time` is NA),
/// parse the two numbers it needs from bytes, aggregate per (origin, carrier) in a dictionary,
/// sort, write CSV.
enum W9Floor {
  struct Group {
    var count = 0
    var delaySum = 0.0
    var delayCount = 0
    var distanceSum = 0
  }

  /// Runs the floor; returns the number of groups and the bytes written.
  static func run(input: String, output: String) throws -> (groups: Int, bytes: Int) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
    var groups: [String: Group] = [:]
    var order: [String] = []
    var index = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
    var fields = [Range<Int>](repeating: 0..<0, count: 19)
    while index < bytes.count {
      var field = 0, start = index
      while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
        if bytes[index] == UInt8(ascii: ",") {
          if field < 19 { fields[field] = start..<index }
          field += 1
          start = index + 1
        }
        index += 1
      }
      if field < 19 { fields[field] = start..<index }
      index += 1
      guard integer(bytes, fields[3]) != nil else { continue }
      let key =
        String(decoding: bytes[fields[12]], as: UTF8.self) + "|" + String(decoding: bytes[fields[9]], as: UTF8.self)
      var group =
        groups[key]
        ?? {
          order.append(key); return Group()
        }()
      group.count += 1
      if let delay = integer(bytes, fields[8]) {
        group.delaySum += Double(delay)
        group.delayCount += 1
      }
      group.distanceSum += integer(bytes, fields[15]) ?? 0
      groups[key] = group
    }
    let sorted = order.enumerated().sorted { a, b in
      let x = groups[a.element]!.count, y = groups[b.element]!.count
      return x != y ? x > y : a.offset < b.offset
    }
    var text = "origin,carrier,flights,mean_arr_delay,total_distance\n"
    for (_, key) in sorted {
      let group = groups[key]!
      let parts = key.split(separator: "|")
      let mean = group.delayCount > 0 ? "\(group.delaySum / Double(group.delayCount))" : ""
      text += "\(parts[0]),\(parts[1]),\(group.count),\(mean),\(group.distanceSum)\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    return (groups.count, text.utf8.count)
  }

  static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    var value = 0, negative = false, index = range.lowerBound
    if index < range.upperBound && bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
    guard index < range.upperBound else { return nil }
    while index < range.upperBound {
      let digit = Int(bytes[index]) - 48
      guard digit >= 0 && digit < 10 else { return nil }
      value = value * 10 + digit
      index += 1
    }
    return negative ? -value : value
  }
}
