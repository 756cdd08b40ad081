import Foundation

/// The canvas scroll offset and zoom a SwiftFlow editor saves with a document.
public struct Viewport: Sendable, Hashable {
  public var offset: CGPoint
  public var zoom: Double

  public init(offset: CGPoint = .zero, zoom: Double = 1) {
    self.offset = offset
    self.zoom = zoom
  }
}
