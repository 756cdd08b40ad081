/// A binary min-heap of integers: Kahn's algorithm in `CalcSession.dependencyOrder()` takes the
/// ready node that comes first in the store, so ties keep the store's order.
struct Heap {
  private var items: [Int] = []

  mutating func insert(_ item: Int) {
    items.append(item)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child] < items[parent] else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popMin() -> Int? {
    guard let first = items.first else { return nil }
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1, right = left + 1
        var smallest = parent
        if left < items.count && items[left] < items[smallest] { smallest = left }
        if right < items.count && items[right] < items[smallest] { smallest = right }
        if smallest == parent { break }
        items.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return first
  }
}
