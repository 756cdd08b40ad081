/// Serializes `JSONValue`s to UTF-8 bytes.
///
/// Iterative: open containers live on an explicit stack, so deeply nested
/// values do not recurse.
struct JSONWriter {
    private(set) var output: [UInt8] = []
    private let prettyPrinted: Bool
    private let sortedKeys: Bool

    /// An array or object whose children are being written.
    private struct Frame {
        var elements: [JSONValue]  // arrays
        var members: [JSONMember]  // objects
        var isObject: Bool
        var next: Int

        var count: Int { isObject ? members.count : elements.count }
    }

    init(options: JSONValue.WritingOptions) {
        prettyPrinted = options.contains(.prettyPrinted)
        sortedKeys = options.contains(.sortedKeys)
        output.reserveCapacity(256)
    }

    mutating func write(_ root: JSONValue) {
        var stack: [Frame] = []
        var value = root
        writing: while true {
            switch value {
            case .null:
                append("null")
            case .bool(let bool):
                append(bool ? "true" : "false")
            case .number(let number):
                writeNumber(number)
            case .string(let string):
                writeString(string)
            case .array(let elements):
                if elements.isEmpty {
                    append("[]")
                } else {
                    output.append(UInt8(ascii: "["))
                    stack.append(Frame(elements: elements, members: [], isObject: false, next: 0))
                }
            case .object(let object):
                if object.isEmpty {
                    append("{}")
                } else {
                    output.append(UInt8(ascii: "{"))
                    let members = sortedKeys ? Self.sorted(object.members) : object.members
                    stack.append(Frame(elements: [], members: members, isObject: true, next: 0))
                }
            }

            // Find the next value to write, closing finished containers.
            while let frame = stack.last {
                if frame.next < frame.count {
                    if frame.next > 0 {
                        output.append(UInt8(ascii: ","))
                    }
                    newline(depth: stack.count)
                    stack[stack.count - 1].next += 1
                    if frame.isObject {
                        let member = frame.members[frame.next]
                        writeString(member.key)
                        append(prettyPrinted ? " : " : ":")
                        value = member.value
                    } else {
                        value = frame.elements[frame.next]
                    }
                    continue writing
                }
                stack.removeLast()
                newline(depth: stack.count)
                output.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
            break writing
        }
    }

    /// Stable sort by key, so duplicate keys keep their relative order
    /// (and the last one still wins).
    private static func sorted(_ members: [JSONMember]) -> [JSONMember] {
        members.sorted { $0.key < $1.key }
    }

    private mutating func newline(depth: Int) {
        guard prettyPrinted else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func append(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: - Numbers

    private mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            // Not representable in JSON; write a string so the output stays valid.
            append(number.isNaN ? "\"nan\"" : number < 0 ? "\"-inf\"" : "\"inf\"")
            return
        }
        if number.magnitude < 9_007_199_254_740_992 && number.rounded(.towardZero) == number {
            if number.sign == .minus {
                output.append(UInt8(ascii: "-"))
            }
            writeDigits(UInt64(number.magnitude))
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    private mutating func writeDigits(_ value: UInt64) {
        var digitCount = 1
        var remaining = value / 10
        while remaining > 0 {
            digitCount += 1
            remaining /= 10
        }
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var rest = value
        var position = start + digitCount
        while rest > 0 {
            position -= 1
            output[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    // MARK: - Strings

    private static let hexDigits: StaticString = "0123456789abcdef"

    private mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for position in bytes.indices {
                let byte = bytes[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex = Self.hexDigits.utf8Start
                    output.append(UInt8(ascii: "u"))
                    output.append(UInt8(ascii: "0"))
                    output.append(UInt8(ascii: "0"))
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
