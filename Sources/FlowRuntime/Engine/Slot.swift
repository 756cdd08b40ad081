/// One value cell of the engine: an output of a node, or the constant an unconnected input
/// takes. Numbers, integers, bools and nulls live unboxed in `bits`; any other value lives in
/// `EvaluationGraph.boxed` and `bits` holds its index there. Stored as parallel columns (`SlotColumn`).
struct Slot: BitwiseCopyable {
  var bits: UInt64
  /// The node whose output this is, or -1 for an input's constant (or a free slot).
  var owner: Int32
  /// A `SlotTag`.
  var tag: UInt8

  init(bits: UInt64, owner: Int32, tag: UInt8) {
    self.bits = bits
    self.owner = owner
    self.tag = tag
  }

  /// A slot holding the scalar `value`, or `nil` if `value` must be boxed.
  @inline(__always)
  static func scalar(_ value: Value, owner: Int32) -> Slot? {
    switch value {
    case .number(let x): Slot(bits: x.bitPattern, owner: owner, tag: SlotTag.number)
    case .integer(let n): Slot(bits: UInt64(bitPattern: n), owner: owner, tag: SlotTag.integer)
    case .bool(let flag): Slot(bits: flag ? 1 : 0, owner: owner, tag: SlotTag.bool)
    case .null: Slot(bits: 0, owner: owner, tag: SlotTag.null)
    default: nil
    }
  }

  /// The scalar value of an unboxed slot.
  @inline(__always)
  var scalarValue: Value {
    switch tag {
    case SlotTag.number: .number(Double(bitPattern: bits))
    case SlotTag.integer: .integer(Int64(bitPattern: bits))
    case SlotTag.bool: .bool(bits != 0)
    default: .null
    }
  }

  /// Whether two unboxed slots hold identical values (`Value.isIdentical`: `0 == -0`, a NaN
  /// equals a NaN, an integer never equals a number).
  @inline(__always)
  func holdsSameScalar(tag otherTag: UInt8, bits otherBits: UInt64) -> Bool {
    guard tag == otherTag else { return false }
    if bits == otherBits { return true }
    guard tag == SlotTag.number else { return false }
    let a = Double(bitPattern: bits), b = Double(bitPattern: otherBits)
    return a == b || (a.isNaN && b.isNaN)
  }
}

/// What a `Slot` holds.
enum SlotTag {
  static let number: UInt8 = 0
  static let integer: UInt8 = 1
  static let bool: UInt8 = 2
  static let null: UInt8 = 3
  /// `bits` is an index into `EvaluationGraph.boxed`.
  static let boxed: UInt8 = 4
  /// Not in use (on `EvaluationGraph.freeSlots`).
  static let free: UInt8 = 5
}
