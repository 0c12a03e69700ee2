import AppStoreModels
import Foundation

/// How the ledger keeps a signed payload: every byte recoverable, at a tenth of the size.
///
/// A JWS from Apple is three base64url parts, and its header carries the whole certificate chain
/// (`x5c`), the same few certificates every time; a notification's payload carries two more JWS, each
/// with its chain again. The compact form decodes the parts to bytes, replaces each header's `x5c`
/// array by the digest of its exact text (the chain itself is stored once, in `certificate_chains`),
/// does the same inside every nested JWS of the payload, and deflates the result with a dictionary of
/// Apple's JSON keys. Stored as text: ``prefix`` and the standard base64 of the deflated bytes.
///
/// Encoding never loses anything: the compact form is decoded again at once and compared with the
/// original, and anything that would not come back byte for byte (a non-canonical base64url part, a
/// NUL byte in a part, not a JWS at all) is stored as received. A stored value not starting with `~`
/// is such a payload (a JWS never does), as is every payload stored before this form existed; one that
/// does is kept after ``verbatimPrefix``.
enum StoredSignedPayload {
    static let prefix = "~1"
    /// A payload kept as received that itself begins with `~` (never one Apple signed) has this before it.
    static let verbatimPrefix = "~0"
    /// Bytes a stored payload may expand to at most, chains included; what would exceed it is corrupt.
    static let expandedLimit = 4 << 20
    /// JWS nested in JWS at most (a notification's payload carries its transaction's; one more level spare).
    static let maximumDepth = 3

    /// A payload's stored form, and the certificate chains it refers to by digest: the exact text of
    /// each `x5c` array.
    struct Encoded: Sendable {
        let stored: String
        let chains: [ChainDigest: [UInt8]]
    }

    enum Failure: Error, Equatable {
        /// The stored value is not a compact form this version wrote.
        case corrupt(String)
        /// The stored value names a chain the lookup did not have.
        case missingChain(ChainDigest)
    }

    /// `jws` in its stored form; the text itself when it has no compact form.
    static func encode(_ jws: String) -> Encoded {
        var chains: [ChainDigest: [UInt8]] = [:]
        let bytes = Array(jws.utf8)
        guard bytes.first != UInt8(ascii: "~") else { return Encoded(stored: verbatimPrefix + jws, chains: [:]) }
        guard !bytes.isEmpty, let body = node(bytes[...], depth: 0, chains: &chains),
            let deflated = Deflate.compress(body, dictionary: StoredSignedPayloadDictionary.bytes)
        else { return Encoded(stored: jws, chains: [:]) }
        let stored = prefix + Data(deflated).base64EncodedString()
        guard let back = try? decode(stored, chain: { chains[$0] }), back == jws else { return Encoded(stored: jws, chains: [:]) }
        return Encoded(stored: stored, chains: chains)
    }

    /// The payload `stored` keeps, byte for byte; `chain` gives a chain's text by its digest.
    static func decode(_ stored: String, chain: (ChainDigest) -> [UInt8]?) throws(Failure) -> String {
        if stored.hasPrefix(verbatimPrefix) { return String(stored.dropFirst(verbatimPrefix.count)) }
        guard stored.hasPrefix(prefix) else { return stored }
        guard let deflated = Data(base64Encoded: String(stored.dropFirst(prefix.count))) else { throw .corrupt("its base64 does not decode") }
        guard let body = Deflate.decompress(deflated.bytes, dictionary: StoredSignedPayloadDictionary.bytes, limit: expandedLimit) else {
            throw .corrupt("it does not inflate")
        }
        var reader = Reader(bytes: body[...])
        var budget = expandedLimit
        let jws = try expandNode(&reader, depth: 0, chain: chain, budget: &budget)
        guard reader.bytes.isEmpty else { throw .corrupt("bytes follow its end") }
        return String(decoding: jws, as: UTF8.self)
    }

    /// The digests of the chains `stored` refers to, read without needing any chain (so a reader can
    /// fetch the ones it lacks at once).
    static func chainDigests(_ stored: String) -> Set<ChainDigest> {
        var found: Set<ChainDigest> = []
        _ = try? decode(stored) { digest in
            found.insert(digest)
            return []
        }
        return found
    }

    // MARK: - Encoding

    /// A compact node: header, payload and signature, each as a length and its bytes; the header's and
    /// payload's JSON with their chains and nested JWS replaced by escapes (a NUL byte, which their
    /// JSON never holds, and a kind: 1, a chain's 16-byte digest; 2, a nested node's length and bytes).
    private static func node(_ jws: ArraySlice<UInt8>, depth: Int, chains: inout [ChainDigest: [UInt8]]) -> [UInt8]? {
        let dot = UInt8(ascii: ".")
        guard let first = jws.firstIndex(of: dot), let second = jws[(first + 1)...].firstIndex(of: dot),
            !jws[(second + 1)...].contains(dot), first > jws.startIndex, second > first + 1,
            let header = Base64URL.decode(jws[..<first]), let payload = Base64URL.decode(jws[(first + 1)..<second]),
            let signature = Base64URL.decode(jws[(second + 1)...]), !header.contains(0), !payload.contains(0)
        else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(header.count / 4 + payload.count + signature.count + 16)
        appendPart(replacingChain(in: header, chains: &chains), to: &output)
        appendPart(replacingNested(in: payload, depth: depth, chains: &chains), to: &output)
        appendPart(signature, to: &output)
        return output
    }

    private static func appendPart(_ part: [UInt8], to output: inout [UInt8]) {
        Varint.append(part.count, to: &output)
        output.append(contentsOf: part)
    }

    /// The header with its `x5c` array (from `[` to `]`, as written) replaced by the chain's digest.
    private static func replacingChain(in header: [UInt8], chains: inout [ChainDigest: [UInt8]]) -> [UInt8] {
        let key = Array("\"x5c\"".utf8)
        guard let keyStart = firstIndex(of: key, in: header[...]) else { return header }
        var index = keyStart + key.count
        func skipSpace() { while index < header.count, [0x20, 0x09, 0x0A, 0x0D].contains(header[index]) { index += 1 } }
        skipSpace()
        guard index < header.count, header[index] == UInt8(ascii: ":") else { return header }
        index += 1
        skipSpace()
        guard index < header.count, header[index] == UInt8(ascii: "["),
            let close = header[index...].firstIndex(of: UInt8(ascii: "]"))
        else { return header }
        let chain = Array(header[index...close])
        // Stored as text: only an ASCII array (base64 strings) is moved out.
        guard chain.allSatisfy({ $0 < 0x80 }) else { return header }
        let digest = ChainDigest.recent(chain)
        chains[digest] = chain
        return Array(header[..<index]) + [0, 1] + digest.bytes + Array(header[(close + 1)...])
    }

    /// The payload with every string value that is itself a JWS replaced by its compact node.
    private static func replacingNested(in payload: [UInt8], depth: Int, chains: inout [ChainDigest: [UInt8]]) -> [UInt8] {
        guard depth + 1 < maximumDepth else { return payload }
        let opening = Array("\"eyJ".utf8)
        let alphabet = Base64URL.table
        var output: [UInt8] = []
        output.reserveCapacity(payload.count)
        var copied = 0
        var searchFrom = 0
        while let found = firstIndex(of: opening, in: payload[searchFrom...]) {
            let start = found + 1
            var end = start
            while end < payload.count, payload[end] == UInt8(ascii: ".") || Base64URL.isAlphabet(payload[end], in: alphabet) { end += 1 }
            searchFrom = end
            guard end < payload.count, payload[end] == UInt8(ascii: "\""), let nested = node(payload[start..<end], depth: depth + 1, chains: &chains)
            else { continue }
            output.append(contentsOf: payload[copied..<start])
            output.append(contentsOf: [0, 2])
            Varint.append(nested.count, to: &output)
            output.append(contentsOf: nested)
            copied = end
        }
        output.append(contentsOf: payload[copied...])
        return output
    }

    /// Where `pattern` first starts in `bytes` (its first byte found with `firstIndex`, then compared).
    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard let head = pattern.first else { return bytes.startIndex }
        var from = bytes.startIndex
        while let candidate = bytes[from...].firstIndex(of: head) {
            guard candidate + pattern.count <= bytes.endIndex else { return nil }
            if bytes[candidate..<(candidate + pattern.count)].elementsEqual(pattern) { return candidate }
            from = candidate + 1
        }
        return nil
    }

    // MARK: - Decoding

    private static func expandNode(
        _ reader: inout Reader, depth: Int, chain: (ChainDigest) -> [UInt8]?, budget: inout Int
    ) throws(Failure) -> [UInt8] {
        let header = try expand(reader.part(), depth: depth, chain: chain, budget: &budget)
        let payload = try expand(reader.part(), depth: depth, chain: chain, budget: &budget)
        let signature = try reader.part()
        var output: [UInt8] = []
        let length = (header.count + payload.count + signature.count) * 4 / 3 + 8
        guard length <= budget else { throw .corrupt("it expands past \(expandedLimit) bytes") }
        budget -= length
        output.reserveCapacity(length)
        Base64URL.encode(header, into: &output)
        output.append(UInt8(ascii: "."))
        Base64URL.encode(payload, into: &output)
        output.append(UInt8(ascii: "."))
        Base64URL.encode(Array(signature), into: &output)
        return output
    }

    private static func expand(
        _ part: ArraySlice<UInt8>, depth: Int, chain: (ChainDigest) -> [UInt8]?, budget: inout Int
    ) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(part.count)
        var rest = part
        while let escape = rest.firstIndex(of: 0) {
            output.append(contentsOf: rest[..<escape])
            var reader = Reader(bytes: rest[(escape + 1)...])
            switch try reader.byte() {
            case 1:
                let digest = ChainDigest(bytes: Array(try reader.take(ChainDigest.length)))
                guard let text = chain(digest) else { throw .missingChain(digest) }
                guard text.count <= budget else { throw .corrupt("it expands past \(expandedLimit) bytes") }
                budget -= text.count
                output.append(contentsOf: text)
            case 2:
                guard depth + 1 < maximumDepth else { throw .corrupt("its JWS nest deeper than \(maximumDepth)") }
                var nested = Reader(bytes: try reader.part())
                output.append(contentsOf: try expandNode(&nested, depth: depth + 1, chain: chain, budget: &budget))
                guard nested.bytes.isEmpty else { throw .corrupt("bytes follow a nested JWS") }
            default:
                throw .corrupt("it has an unknown escape")
            }
            rest = reader.bytes
        }
        output.append(contentsOf: rest)
        return output
    }

    /// Bounds-checked reads of a compact node.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() throws(Failure) -> UInt8 {
            guard let first = bytes.popFirst() else { throw .corrupt("it ends early") }
            return first
        }

        mutating func take(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count else { throw .corrupt("it ends early") }
            let taken = bytes.prefix(count)
            bytes = bytes.dropFirst(count)
            return taken
        }

        /// A length (``Varint``) and that many bytes.
        mutating func part() throws(Failure) -> ArraySlice<UInt8> {
            guard let length = Varint.read(&bytes) else { throw .corrupt("a length does not read") }
            return try take(length)
        }
    }
}
