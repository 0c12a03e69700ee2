import Foundation

/// Structured values drawn from libFuzzer's bytes: each call consumes a few bytes and returns a value
/// of the shape asked for, biased to the values that break code — bounds, overflows, zero, negative,
/// NaN-like text, the wrong type — beside plausible ones, so mutations explore values, not byte soup.
/// Out of bytes, every call returns its plausible default.
public struct FuzzValues {
    private var bytes: ArraySlice<UInt8>
    /// How often a value is drawn from the breaking ones rather than the plausible ones, out of 256:
    /// chosen by the input's first byte, so some inputs break one field and get far, others break many.
    public private(set) var rate: UInt8

    public init(_ data: Data) {
        bytes = ArraySlice(data)
        rate = 0
        rate = [0, 1, 2, 4, 8, 16, 64, 255][Int(byte() % 8)]
    }

    /// Whether the next value is a breaking one.
    public mutating func mutates() -> Bool {
        byte() < rate
    }

    public var isExhausted: Bool { bytes.isEmpty }

    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// A number in `0..<count` (0 when `count` is 0).
    public mutating func index(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        return Int(UInt16(byte()) << 8 | UInt16(byte())) % count
    }

    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[index(choices.count)]
    }

    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }

    /// Integers that break arithmetic and conversions.
    public static let edgeIntegers: [Int64] = [
        0, 1, -1, 2, 7, 100, 999, 1_000, 100_000, 1_000_000, 1_000_001, Int64(Int32.max), Int64(Int32.min), 1 << 53, (1 << 53) + 1,
        Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 10_000_000_000_000, 10_000_000_000_001, 9_223_372_036_854_775,
    ]

    /// An integer: a plausible one around `around`, an edge, or any.
    public mutating func integer(around: Int64 = 1) -> Int64 {
        guard mutates() else { return around.addingReportingOverflow(Int64(byte() % 4)).partialValue }
        switch byte() % 8 {
        case 0, 1, 2: return around.addingReportingOverflow(Int64(Int8(bitPattern: byte()))).partialValue
        case 3, 4, 5: return pick(Self.edgeIntegers)
        default: return int64()
        }
    }

    /// Milliseconds since 1970 that break dates: the bounds of years 0, 1, 9999 and 10000, of Int64,
    /// of a Double's exact integers, and the NSDate limits.
    public static let edgeMilliseconds: [Int64] = [
        0, -1, 1, -62_167_219_200_000, -62_167_219_200_001, -62_135_596_800_000, -62_135_769_600_000, 253_402_300_799_999,
        253_402_300_800_000, 7_258_118_400_000, 7_258_118_400_001, Int64.max, Int64.min, 9_007_199_254_740_993, -8_640_000_000_000_000,
        8_640_000_000_000_001,
    ]

    /// An instant in milliseconds since 1970, as JSON: plausible (near `base`, by days), an edge, any
    /// integer, or a fraction and an exponent JSON allows.
    public mutating func milliseconds(near base: Int64) -> String {
        guard mutates() else {
            let minutes = Int64(Int16(truncatingIfNeeded: Int(byte()) << 8 | Int(byte())))
            return String(base + minutes * 60_000)
        }
        switch byte() % 10 {
        case 0, 1, 2, 3, 4:
            let days = Int64(Int16(truncatingIfNeeded: Int(byte()) << 8 | Int(byte())) % 800)
            return String(base.addingReportingOverflow(days.multipliedReportingOverflow(by: 86_400_000).partialValue).partialValue)
        case 5, 6: return String(pick(Self.edgeMilliseconds))
        case 7: return String(int64())
        case 8: return pick(["1e308", "-1e308", "1.5", "1757916813711.5125", "-0", "1E3", "9.999e18", "4e15"])
        default: return pick(["null", "\"2026-01-01\"", "true", "[]", "{}", "\"\""])
        }
    }

    /// A short string: one of `valid`; breaking, one of `invalid`, a bit of text from the input, or an awkward one.
    public mutating func string(_ valid: [String], invalid: [String] = []) -> String {
        guard mutates() else { return valid.isEmpty ? "x" : pick(valid) }
        switch byte() % 8 {
        case 0, 1, 2, 3, 4: return invalid.isEmpty ? (valid.isEmpty ? "x" : pick(valid)) : pick(invalid)
        case 5:
            let count = Int(byte() % 24)
            var scalars = ""
            for _ in 0..<count { scalars.unicodeScalars.append(Unicode.Scalar(UInt8(32 + byte() % 95))) }
            return scalars
        case 6: return pick(["", " ", "\u{0}", "é", "e\u{301}", "$anon:", "$anon:00000000-0000-0000-0000-000000000000", String(repeating: "a", count: 201), "%", "\u{7F}"])
        default: return String(int64())
        }
    }

    /// A JSON string literal of `text`.
    public static func json(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// A JSON value where a string is expected: mostly the string, sometimes the wrong type.
    public mutating func jsonString(_ valid: [String], invalid: [String] = []) -> String {
        mutates() && byte() % 6 == 0 ? pick(["null", "1", "true", "[]", "{}"]) : Self.json(string(valid, invalid: invalid))
    }

    /// One of `valid` JSON texts; breaking, one of `invalid`.
    public mutating func choice(_ valid: [String], invalid: [String]) -> String {
        mutates() ? pick(invalid) : pick(valid)
    }

    /// A JSON value where an integer is expected: mostly one, sometimes a fraction, a huge exponent or the wrong type.
    public mutating func jsonInteger(around: Int64 = 1) -> String {
        guard mutates() else { return String(integer(around: around)) }
        switch byte() % 6 {
        case 0: return pick(["1e308", "-1e308", "0.5", "-0", "1E2", "null", "\"1\"", "true"])
        default: return String(integer(around: around))
        }
    }

    /// A JSON object from `fields` (name, JSON value), each left out now and then.
    public mutating func object(_ fields: [(String, String)]) -> String {
        var parts: [String] = []
        for (name, value) in fields where !(mutates() && byte() % 4 == 0) { parts.append(Self.json(name) + ":" + value) }
        return "{" + parts.joined(separator: ",") + "}"
    }
}
