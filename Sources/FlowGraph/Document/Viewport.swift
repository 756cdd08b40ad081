import Foundation

/// The canvas scroll offset and zoom a SwiftFlow editor saves with a document.
public struct Viewport: Sendable, Hashable {
  public var offset: CGPoint
  public var zoom: Double
  /// The keys the document gave the viewport beyond `offset` and `zoom`, and their order.
  public var shape: ObjectShape?

  public init(offset: CGPoint = .zero, zoom: Double = 1) {
    self.offset = offset
    self.zoom = zoom
  }
}
