/// A CSV file that cannot be read: what is wrong and on which line (the header is line 1).
struct CSVError: Error, Hashable, Sendable, CustomStringConvertible {
  var line: Int
  var reason: String

  init(line: Int, _ reason: String) {
    self.line = line
    self.reason = reason
  }

  var description: String { "line \(line): \(reason)" }
}
