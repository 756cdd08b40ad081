/// A compressed stream that cannot be decoded, or that decodes to more than its limit.
///
/// `message` says what is wrong and where (a byte offset into the compressed input); callers
/// prefix the file's name.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
