/// Why an `HTTPServer` could not start: the address, and the system's reason.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible, Hashable {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
