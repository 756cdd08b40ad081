import FlowRuntime

extension JoinCodes {
  /// Codes for string keys whose left (probe) side is dictionary-encoded: every distinct
  /// string of both sides gets an integer id (the right side's rows hashed once each, or only
  /// its dictionary's entries when it is encoded too; the left side's dictionary entries once),
  /// then both sides join on those ids through the integer path — the left rows look up a
  /// small integer, never hash bytes. The same codes as the byte-hashing path (right codes in
  /// order of first appearance among the right rows). `nil` when the left side is flat.
  static func dictionaryCodes(
    _ left: Column, _ a: StringColumn, _ right: Column, _ b: StringColumn,
    _ morsels: TableMorsels
  ) -> (left: [Int32], right: [Int32], cardinality: Int)? {
    guard let leftEntries = a.dictionary, let leftCodes = a.codes else { return nil }
    var ids = StringDictionaryBuilder(limit: Int(UInt32.max) - 1)
    let rightIDs: [UInt32]
    if let rightEntries = b.dictionary, let rightCodes = b.codes {
      let map = (0..<rightEntries.count).map { ids.code(of: rightEntries.utf8($0))! }
      rightIDs = rightCodes.map { map[Int($0)] }
    } else {
      rightIDs = (0..<b.count).map { ids.code(of: b.utf8($0))! }
    }
    let leftMap = (0..<leftEntries.count).map { ids.code(of: leftEntries.utf8($0))! }
    return probe(
      left, right, morsels, into: IntegerCodeTable.self,
      { Int64(leftMap[Int(leftCodes[$0])]) }, { Int64(rightIDs[$0]) })
  }
}
