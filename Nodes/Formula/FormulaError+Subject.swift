extension FormulaError {
  /// The error as a message naming what the user wrote and where:
  /// `formula for column 'total', at character 5: '*' needs numbers` for the subject
  /// `formula for column 'total'` (the position only when the error has one).
  func described(as subject: String) -> String {
    subject + (column.map { ", at character \($0)" } ?? "") + ": " + message
  }
}
