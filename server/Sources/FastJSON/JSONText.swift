import AppStoreModels
import Foundation

/// JSON text written byte for byte as `JSONEncoder` writes it with `.sortedKeys` and dates as
/// milliseconds since 1970 (the ledger's settings and ``AppStoreJSON/encoder()``'s), for the types
/// written often enough that `Codable`'s machinery shows in a profile.
///
/// The caller writes each object's keys in `JSONEncoder`'s sorted order (by their UTF-8 bytes) and
/// leaves out `nil` members, as `encodeIfPresent` does. A number `JSONEncoder` refuses (an infinite or
/// NaN date) marks the text ``failed``: the caller then encodes with `JSONEncoder`, which reports it.
package struct JSONText {
    package private(set) var text = ""
    /// Whether a value `JSONEncoder` would refuse was written.
    package private(set) var failed = false
    /// Whether the object being written has no member yet.
    private var first = true

    package init(capacity: Int = 0) {
        text.reserveCapacity(capacity)
    }

    package mutating func openObject() {
        text += "{"
        first = true
    }

    package mutating func closeObject() {
        text += "}"
        first = false
    }

    package mutating func emptyObject() {
        text += "{}"
        first = false
    }

    package mutating func emptyArray() {
        text += "[]"
        first = false
    }

    /// Starts the member `key` (plain ASCII, no character that needs escaping); its value follows.
    package mutating func key(_ key: StaticString) {
        text += first ? "\"" : ",\""
        first = false
        text += key.description
        text += "\":"
    }

    package mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    package mutating func member(_ key: StaticString, _ value: Date?) {
        guard let value else { return }
        self.key(key)
        date(value)
    }

    package mutating func member<Integer: FixedWidthInteger>(_ key: StaticString, _ value: Integer?) {
        guard let value else { return }
        self.key(key)
        text += String(value)
    }

    package mutating func member(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        text += value ? "true" : "false"
    }

    package mutating func member(_ key: StaticString, _ value: UUID?) {
        guard let value else { return }
        self.key(key)
        string(value.uuidString)
    }

    package mutating func member<E: AppStoreEnumeration>(_ key: StaticString, _ value: E?) where E.RawValue == String {
        member(key, value?.rawValue)
    }

    package mutating func member<E: AppStoreEnumeration>(_ key: StaticString, _ value: E?) where E.RawValue == Int32 {
        member(key, value?.rawValue)
    }

    package mutating func member(_ key: StaticString, _ values: [String]?) {
        guard let values else { return }
        self.key(key)
        _ = array(values) { json, value in
            json.string(value)
            return true
        }
    }

    /// An object of `entries`, its keys in `JSONEncoder`'s order (by their UTF-8 bytes), each value
    /// written by `value`; `false` as soon as one isn't (the text is then not to be used).
    package mutating func object<Value>(_ entries: [String: Value], _ value: (inout JSONText, Value) -> Bool) -> Bool {
        openObject()
        for (key, entry) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            self.key(key)
            guard value(&self, entry) else { return false }
        }
        closeObject()
        return true
    }

    /// An array of `elements`, each written by `element`; `false` as soon as one isn't.
    package mutating func array<Element>(_ elements: [Element], _ element: (inout JSONText, Element) -> Bool) -> Bool {
        openArray()
        for value in elements {
            self.element()
            guard element(&self, value) else { return false }
        }
        closeArray()
        return true
    }

    package mutating func openArray() {
        text += "["
        first = true
    }

    package mutating func closeArray() {
        text += "]"
        first = false
    }

    /// Starts the next element of the array being written (what ``array(_:_:)`` does for each, for
    /// writers called often enough that its unspecialized calls show in a profile).
    package mutating func element() {
        if !first { text += "," }
        first = false
    }

    /// Starts the member `key`, escaped as `JSONEncoder` escapes it; its value follows. Members must
    /// come in `JSONEncoder`'s order (by their keys' UTF-8 bytes).
    package mutating func key(_ key: String) {
        if !first { text += "," }
        first = false
        string(key)
        text += ":"
    }

    /// An integer value (a dictionary's, an array's).
    package mutating func integer<Integer: FixedWidthInteger>(_ value: Integer) {
        text += String(value)
    }

    /// `null`, as `JSONEncoder` writes a dictionary's `nil` value.
    package mutating func null() {
        text += "null"
    }

    /// A date as milliseconds since 1970.
    package mutating func date(_ value: Date) {
        number(1000.0 * value.timeIntervalSince1970)
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest form, without a trailing `.0`.
    package mutating func number(_ value: Double) {
        guard value.isFinite else {
            failed = true
            return
        }
        let written = value.description
        text += written.hasSuffix(".0") ? written.dropLast(2) : Substring(written)
    }

    /// A string as `JSONEncoder` writes it: `"`, `\`, `/` and control characters escaped, the rest as is.
    package mutating func string(_ value: String) {
        Self.appendQuoted(value, to: &text)
    }

    /// Appends `value` to `text` as a JSON string, escaped as `JSONEncoder` escapes it; with
    /// `escapingSlashes: false`, `/` as is (``JSONCursor`` then reads the string without `JSONDecoder`).
    package static func appendQuoted(_ value: String, to text: inout String, escapingSlashes: Bool = true) {
        text += "\""
        if value.utf8.contains(where: { needsEscape($0) || ($0 == UInt8(ascii: "/") && escapingSlashes) }) {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "/" where escapingSlashes: text += "\\/"
                case "\u{8}": text += "\\b"
                case "\t": text += "\\t"
                case "\n": text += "\\n"
                case "\u{C}": text += "\\f"
                case "\r": text += "\\r"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
        } else {
            text += value
        }
        text += "\""
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
