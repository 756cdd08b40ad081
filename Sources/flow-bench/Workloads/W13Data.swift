import Foundation
import FlowTestSupport

/// The TPC-H-shaped tables of W13, generated here (seeded, so every run and every tool reads
/// the same bytes): `customer`, `orders` and `lineitem` with TPC-H's columns, value ranges and
/// row counts per scale factor (150,000 × SF customers, 1,500,000 × SF orders, 1–7 lines per
/// order, about 6,000,000 × SF lines), dates as ISO text. Not dbgen's exact text (comments are
/// random words), but the same shapes: what Q1 and Q3 read is distributed as TPC-H specifies.
enum W13Data {
  static let segments = ["AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"]
  static let priorities = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
  static let instructions = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
  static let modes = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]
  static let words = [
    "furiously", "quickly", "carefully", "blithely", "slyly", "regular", "final", "pending",
    "express", "ironic", "bold", "even", "special", "unusual", "deposits", "requests",
    "packages", "accounts", "instructions", "theodolites", "foxes", "pinto", "beans", "asymptotes"
  ]

  /// Day 0 is 1992-01-01; TPC-H's order dates run to 1998-08-02 (day 2,405), lines ship up to
  /// 121 days later and are received up to 30 days after that.
  static let dayCount = 2_600
  static let currentDay = 1_263  // 1995-06-17: TPC-H's CURRENTDATE
  /// The ISO text of each day.
  static let dates: [[UInt8]] = (0..<dayCount).map { Array(isoDate(daysFrom1992: $0).utf8) }

  static func isoDate(daysFrom1992 days: Int) -> String {
    // Howard Hinnant's civil-from-days, from 1970-01-01.
    let z = days + 8_035 + 719_468
    let era = z / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))"
  }

  /// Sizes of the three files written.
  struct Sizes {
    var customer = 0, orders = 0, lineitem = 0
    var lineitemRows = 0, ordersRows = 0, customerRows = 0
  }

  /// Writes `customer.csv`, `orders.csv` and `lineitem.csv` into `folder` at scale factor `sf`.
  static func write(to folder: String, scaleFactor sf: Double, seed: UInt64 = 13) throws -> Sizes {
    var sizes = Sizes()
    let customers = max(1, Int(150_000 * sf))
    let orderCount = max(1, Int(1_500_000 * sf))
    var random = SeededRandom(seed: seed)
    func uniform(_ low: Int, _ high: Int) -> Int { low + Int(random.next() % UInt64(high - low + 1)) }

    var out = CSVOut(path: folder + "/customer.csv")
    out.line("c_custkey,c_name,c_address,c_nationkey,c_phone,c_acctbal,c_mktsegment,c_comment")
    for key in 1...customers {
      out.int(key); out.comma()
      out.text("Customer#"); out.padded(key, 9); out.comma()
      out.word(uniform(0, 23)); out.text(" "); out.int(uniform(1, 9_999)); out.comma()
      let nation = uniform(0, 24)
      out.int(nation); out.comma()
      out.int(nation + 10); out.text("-"); out.int(uniform(100, 999)); out.text("-"); out.int(uniform(100, 999))
      out.text("-"); out.int(uniform(1_000, 9_999)); out.comma()
      out.cents(uniform(-99_999, 999_999)); out.comma()
      out.text(segments[uniform(0, 4)]); out.comma()
      out.sentence(uniform(3, 10), &random)
      out.newline()
    }
    sizes.customer = try out.finish()
    sizes.customerRows = customers

    var orders = CSVOut(path: folder + "/orders.csv")
    var lines = CSVOut(path: folder + "/lineitem.csv")
    orders.line(
      "o_orderkey,o_custkey,o_orderstatus,o_totalprice,o_orderdate,o_orderpriority,o_clerk,o_shippriority,o_comment")
    lines.line(
      "l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax,l_returnflag,"
        + "l_linestatus,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode,l_comment")
    let parts = max(1, Int(200_000 * sf)), suppliers = max(1, Int(10_000 * sf))
    for index in 0..<orderCount {
      // TPC-H's sparse keys: 8 used of every 32.
      let orderKey = (index / 8) * 32 + index % 8 + 1
      // Customers whose key is a multiple of 3 place no orders.
      var customer = uniform(1, customers)
      if customer % 3 == 0 && customers > 2 { customer = customer == customers ? customer - 1 : customer + 1 }
      let orderDay = uniform(0, 2_405 - 151)
      let lineCount = uniform(1, 7)
      var total = 0
      var shipped = 0
      for number in 1...lineCount {
        let quantity = uniform(1, 50)
        let part = uniform(1, parts)
        let retail = 90_000 + (part / 10) % 20_001 + 100 * (part % 1_000)  // cents, TPC-H's formula
        let price = quantity * retail
        let discount = uniform(0, 10), tax = uniform(0, 8)
        let shipDay = orderDay + uniform(1, 121)
        let commitDay = orderDay + uniform(30, 90)
        let receiptDay = shipDay + uniform(1, 30)
        lines.int(orderKey); lines.comma()
        lines.int(part); lines.comma()
        lines.int(uniform(1, suppliers)); lines.comma()
        lines.int(number); lines.comma()
        lines.int(quantity); lines.text(".00"); lines.comma()
        lines.cents(price); lines.comma()
        lines.text("0."); lines.padded(discount, 2); lines.comma()
        lines.text("0."); lines.padded(tax, 2); lines.comma()
        lines.text(receiptDay <= currentDay ? (uniform(0, 1) == 0 ? "R" : "A") : "N"); lines.comma()
        let open = shipDay > currentDay
        lines.text(open ? "O" : "F"); lines.comma()
        lines.bytes(dates[shipDay]); lines.comma()
        lines.bytes(dates[commitDay]); lines.comma()
        lines.bytes(dates[receiptDay]); lines.comma()
        lines.text(instructions[uniform(0, 3)]); lines.comma()
        lines.text(modes[uniform(0, 6)]); lines.comma()
        lines.sentence(uniform(2, 6), &random)
        lines.newline()
        total += price * (100 - discount) / 100 * (100 + tax) / 100
        if open { shipped += 1 }
        sizes.lineitemRows += 1
      }
      orders.int(orderKey); orders.comma()
      orders.int(customer); orders.comma()
      orders.text(shipped == 0 ? "F" : shipped == lineCount ? "O" : "P"); orders.comma()
      orders.cents(total); orders.comma()
      orders.bytes(dates[orderDay]); orders.comma()
      orders.text(priorities[uniform(0, 4)]); orders.comma()
      orders.text("Clerk#"); orders.padded(uniform(1, max(1, Int(1_000 * sf))), 9); orders.comma()
      orders.text("0"); orders.comma()
      orders.sentence(uniform(3, 10), &random)
      orders.newline()
    }
    sizes.orders = try orders.finish()
    sizes.lineitem = try lines.finish()
    sizes.ordersRows = orderCount
    return sizes
  }

  /// A CSV file written through a 1 MB buffer.
  struct CSVOut {
    let path: String
    var buffer: [UInt8] = []
    var handle: FileHandle?
    var written = 0
    var failed = false

    init(path: String) {
      self.path = path
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      handle = FileHandle(forWritingAtPath: path)
      buffer.reserveCapacity(1 << 20)
    }

    mutating func flushIfFull() {
      if buffer.count >= (1 << 20) - 512 { flush() }
    }

    mutating func flush() {
      guard let handle else { failed = true; return }
      do { try handle.write(contentsOf: buffer) } catch { failed = true }
      written += buffer.count
      buffer.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws -> Int {
      flush()
      try handle?.close()
      if failed { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
      return written
    }

    mutating func line(_ text: String) { buffer.append(contentsOf: text.utf8); newline() }
    mutating func text(_ text: String) { buffer.append(contentsOf: text.utf8) }
    mutating func bytes(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }
    mutating func comma() { buffer.append(UInt8(ascii: ",")) }
    mutating func newline() { buffer.append(UInt8(ascii: "\n")); flushIfFull() }
    mutating func word(_ index: Int) { buffer.append(contentsOf: W13Data.words[index % W13Data.words.count].utf8) }

    mutating func sentence(_ count: Int, _ random: inout SeededRandom) {
      for index in 0..<count {
        if index > 0 { buffer.append(UInt8(ascii: " ")) }
        word(Int(random.next() % UInt64(W13Data.words.count)))
      }
    }

    mutating func int(_ value: Int) {
      var value = value
      if value < 0 { buffer.append(UInt8(ascii: "-")); value = -value }
      if value < 10 { buffer.append(UInt8(0x30 + value)); return }
      var digits = 1, power = 10
      while value >= power { digits += 1; power *= 10 }
      let first = buffer.count
      buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
      var index = first + digits - 1
      while value > 0 {
        buffer[index] = UInt8(0x30 + value % 10)
        value /= 10
        index -= 1
      }
    }

    /// `value` with at least `width` digits (leading zeros).
    mutating func padded(_ value: Int, _ width: Int) {
      var digits = 1, power = 10
      while value >= power { digits += 1; power *= 10 }
      for _ in digits..<max(digits, width) { buffer.append(UInt8(ascii: "0")) }
      int(value)
    }

    /// An amount in cents as `d.cc`.
    mutating func cents(_ value: Int) {
      if value < 0 { buffer.append(UInt8(ascii: "-")) }
      let magnitude = abs(value)
      int(magnitude / 100)
      buffer.append(UInt8(ascii: "."))
      padded(magnitude % 100, 2)
    }
  }
}
