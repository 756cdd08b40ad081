// Why unsafe, and why it is sound: the only unsafe operations are `withUnsafeBufferPointer` /
// `withUnsafeBytes` over the caller's bytes, whose buffer is handed to `JSONParser` (under its
// invariants, `UnsafeJSONParser.swift`) and used only inside the closure: the parser copies
// what it keeps into values it owns, so no pointer escapes.
import Foundation

extension JSONValue {
  /// Parses a complete UTF-8 JSON document (RFC 8259, strict).
  ///
  /// Exactly one value of any type is accepted, surrounded only by
  /// whitespace. Nesting deeper than 512 levels is rejected.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
    }
    return try result.get()
  }

  /// Parses a complete UTF-8 JSON document (RFC 8259, strict).
  public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(JSONSyntaxError) in
        try JSONParser.parse(raw.bindMemory(to: UInt8.self))
      }
    }
    return try result.get()
  }

  /// Parses a complete JSON document (RFC 8259, strict).
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { buffer in
      Result { () throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
    }
    return try result.get()
  }
}
