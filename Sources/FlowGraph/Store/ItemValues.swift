/// Values by change-item index, for `ChangeResolutions`: a sorted array searched by halving
/// rather than a dictionary, since the store fills it in item order (appending) and a change
/// usually has one item, for which hashing costs more than it saves.
///
/// Invariants: `entries` is sorted by index, without repeats.
package struct ItemValues<Value: Sendable>: Sendable {
  private var entries: [(index: Int, value: Value)] = []

  package init() {}

  package var isEmpty: Bool { entries.isEmpty }

  /// The value for item `index`; setting `nil` removes it.
  ///
  /// - Complexity: O(log *n*); setting the next index past the largest is O(1) amortized.
  package subscript(index: Int) -> Value? {
    get {
      let place = position(of: index)
      return place < entries.count && entries[place].index == index ? entries[place].value : nil
    }
    set {
      if let last = entries.last, last.index < index, let newValue {
        entries.append((index, newValue))
        return
      }
      let place = position(of: index)
      let present = place < entries.count && entries[place].index == index
      switch (present, newValue) {
      case (true, let value?): entries[place].value = value
      case (true, nil): entries.remove(at: place)
      case (false, let value?): entries.insert((index, value), at: place)
      case (false, nil): break
      }
    }
  }

  /// The first position whose index is not less than `index`.
  private func position(of index: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].index < index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
