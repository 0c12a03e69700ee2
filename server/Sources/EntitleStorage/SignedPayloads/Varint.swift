/// Unsigned LEB128 lengths, as the compact signed payloads write them: at most 4 bytes (2^28 − 1).
enum Varint {
    static func append(_ value: Int, to output: inout [UInt8]) {
        var rest = UInt(max(0, value))
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }

    /// The length at the start of `bytes`, which it then drops; `nil` when it ends early or runs past 4 bytes.
    static func read(_ bytes: inout ArraySlice<UInt8>) -> Int? {
        var value = 0
        for shift in stride(from: 0, to: 28, by: 7) {
            guard let byte = bytes.popFirst() else { return nil }
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}
