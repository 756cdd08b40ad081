/// Edge paths sampled as points, and boxes they must not enter: the geometric check that no
/// edge of a drawing passes under a node.
public enum PathGeometry {
  public struct Box: Sendable {
    public var x, y, width, height: Double
    public var name: String

    public init(x: Double, y: Double, width: Double, height: Double, name: String) {
      self.x = x; self.y = y; self.width = width; self.height = height; self.name = name
    }

    /// Whether `point` lies inside the box shrunk by `inset` on every side (a path may run
    /// along a box's border, as it does from a port).
    public func contains(_ point: (x: Double, y: Double), inset: Double) -> Bool {
      point.x > x + inset && point.x < x + width - inset && point.y > y + inset && point.y < y + height - inset
    }
  }

  /// Points along SVG path data made of absolute `M`, `H`, `V`, `L` and `C` commands:
  /// `perStep` points on every step (cubic Béziers evaluated from their control points).
  /// Returns `nil` for a command it does not know.
  public static func samples(ofPathData data: String, perStep: Int = 32) -> [(x: Double, y: Double)]? {
    var tokens: [Substring] = []
    var current = ""
    for character in data {
      if character.isLetter {
        if !current.isEmpty { tokens.append(Substring(current)); current = "" }
        tokens.append(Substring(String(character)))
      } else if character == " " || character == "," {
        if !current.isEmpty { tokens.append(Substring(current)); current = "" }
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { tokens.append(Substring(current)) }
    var index = 0
    func number() -> Double? {
      guard index < tokens.count, let value = Double(tokens[index]) else { return nil }
      index += 1
      return value
    }
    var points: [(x: Double, y: Double)] = []
    var at = (x: 0.0, y: 0.0)
    func line(to end: (x: Double, y: Double)) {
      for step in 1...perStep {
        let t = Double(step) / Double(perStep)
        points.append((at.x + (end.x - at.x) * t, at.y + (end.y - at.y) * t))
      }
      at = end
    }
    while index < tokens.count {
      let command = tokens[index]
      index += 1
      switch command {
      case "M":
        guard let x = number(), let y = number() else { return nil }
        at = (x, y)
        points.append(at)
      case "H":
        guard let x = number() else { return nil }
        line(to: (x, at.y))
      case "V":
        guard let y = number() else { return nil }
        line(to: (at.x, y))
      case "L":
        guard let x = number(), let y = number() else { return nil }
        line(to: (x, y))
      case "C":
        guard let x1 = number(), let y1 = number(), let x2 = number(), let y2 = number(), let x = number(),
          let y = number()
        else { return nil }
        let start = at
        for step in 1...perStep {
          let t = Double(step) / Double(perStep), u = 1 - t
          let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
          points.append((a * start.x + b * x1 + c * x2 + d * x, a * start.y + b * y1 + c * y2 + d * y))
        }
        at = (x, y)
      default:
        return nil
      }
    }
    return points
  }

  /// The first box a point of `points` lies inside (shrunk by `inset`), with that point.
  /// Boxes are bucketed by column of `bucket` points so the check is not quadratic.
  public static func firstHit(
    _ points: [(x: Double, y: Double)], boxes: [Box], inset: Double = 1,
    bucket: Double = 64
  ) -> (box: Box, point: (x: Double, y: Double))? {
    var buckets: [Int: [Int]] = [:]
    for (index, box) in boxes.enumerated() {
      for column in Int((box.x / bucket).rounded(.down))...Int(((box.x + box.width) / bucket).rounded(.down)) {
        buckets[column, default: []].append(index)
      }
    }
    for point in points {
      for index in buckets[Int((point.x / bucket).rounded(.down))] ?? []
      where boxes[index].contains(point, inset: inset) {
        return (boxes[index], point)
      }
    }
    return nil
  }
}
