/// Values by change-item index, for `ChangeResolutions`: one value inline (a change usually has
/// one item: no allocation), more in a sorted array searched by halving rather than a
/// dictionary, since the store fills it in item order (appending).
///
/// Invariants: `entries` is sorted by index, without repeats; `single` is set only while
/// `entries` is empty.
package struct ItemValues<Value: Sendable>: Sendable {
  // Another module's read of this generic subscript runs unspecialized, looking up the tuple's
  // metadata at run time: engines read through `ChangeResolutions.item(_:)`, compiled here.
  @usableFromInline var single: (index: Int, value: Value)?
  @usableFromInline var entries: [(index: Int, value: Value)] = []

  package init() {}

  @inlinable package var isEmpty: Bool { single == nil && entries.isEmpty }

  /// Every value with its item index, in index order (for a reader walking all items once,
  /// without a search per item).
  package var all: [(index: Int, value: Value)] { single.map { [$0] } ?? entries }

  /// The value for item `index`; setting `nil` removes it.
  ///
  /// - Complexity: O(log *n*); setting the next index past the largest is O(1) amortized.
  package subscript(index: Int) -> Value? {
    @inlinable get {
      if let single { return single.index == index ? single.value : nil }
      let place = position(of: index)
      return place < entries.count && entries[place].index == index ? entries[place].value : nil
    }
    set {
      if entries.isEmpty {
        guard let current = single, current.index != index else {
          single = newValue.map { (index, $0) }
          return
        }
        guard newValue != nil else { return }
        entries = [current]
        single = nil
      }
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
  @inlinable func position(of index: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].index < index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
