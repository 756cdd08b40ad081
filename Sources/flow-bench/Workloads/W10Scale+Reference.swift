import FlowRuntime
import FlowTestSupport

extension W10Scale {
  /// The generated graph, kept as flat arrays for the reference computations.
  struct Reference {
    var nodeCount: Int
    var sourceCount: Int
    /// `inputs[2 (i - sourceCount)]`, `inputs[2 (i - sourceCount) + 1]`: node i's `a` and `b`.
    var inputs: [Int32]
    var values: [Int64]
    var sum: Int64

    init(nodeCount: Int) {
      self.nodeCount = nodeCount
      sourceCount = nodeCount / 100
      var random = SeededRandom(seed: 42)
      inputs = []
      inputs.reserveCapacity(2 * (nodeCount - sourceCount))
      values = [Int64](repeating: 0, count: nodeCount)
      for index in 0..<sourceCount { values[index] = Int64(index + 1) }
      for index in sourceCount..<nodeCount {
        let a = Int(random.next() % UInt64(index))
        let b = Int(random.next() % UInt64(index))
        inputs.append(Int32(a))
        inputs.append(Int32(b))
        values[index] = (values[a] + values[b]) % BenchKinds.modulus
      }
      sum = values.reduce(0, +)
    }

    /// Node `source`'s distinct direct successors and all its descendants.
    func reach(of source: Int) -> (children: Int, descendants: Int) {
      var marked = [Bool](repeating: false, count: nodeCount)
      marked[source] = true
      var children = 0
      var descendants = 0
      for index in max(source + 1, sourceCount)..<nodeCount {
        let a = Int(inputs[2 * (index - sourceCount)])
        let b = Int(inputs[2 * (index - sourceCount) + 1])
        if a == source || b == source { children += 1 }
        if marked[a] || marked[b] {
          marked[index] = true
          descendants += 1
        }
      }
      return (children, descendants)
    }

    /// The document as compact JSON (the shape a host writes without pretty-printing).
    func documentBytes() -> [UInt8] {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(nodeCount * 140)
      func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
      }
      func append(_ number: Int) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
          repeat {
            buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
          } while rest > 0
          for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
      }
      append(#"{"nodes":["#)
      for index in 0..<nodeCount {
        if index > 0 { append(",") }
        append(#"{"id":"n"#)
        append(index)
        append(#"","position":["#)
        append(index % 1_000 * 200)
        append(",")
        append(index / 1_000 * 100)
        if index < sourceCount {
          append(#"],"data":{"kind":"source","params":{"value":"#)
          append(index + 1)
          append("}}}")
        } else {
          append(#"],"data":{"kind":"addmod"}}"#)
        }
      }
      append(#"],"edges":["#)
      for edge in 0..<inputs.count {
        if edge > 0 { append(",") }
        append(#"{"id":"e"#)
        append(edge)
        append(#"","sourceNodeID":"n"#)
        append(Int(inputs[edge]))
        append(#"","targetNodeID":"n"#)
        append(sourceCount + edge / 2)
        append(edge % 2 == 0 ? #"","targetHandleID":"a"}"# : #"","targetHandleID":"b"}"#)
      }
      append("]}")
      return bytes
    }
  }
}
