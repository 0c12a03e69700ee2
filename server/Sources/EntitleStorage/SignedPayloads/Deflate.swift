import CZlib
import Foundation

/// The zlib format (RFC 1950: deflate with the preset dictionary's ID and an Adler-32 of the content,
/// so a damaged stored value is refused rather than read as other bytes), through the system's zlib.
/// Decompression is bounded: a stored value that would expand past `limit` bytes is refused.
enum Deflate {
    /// `input` compressed at the best level with `dictionary` preset; `nil` only if zlib itself fails.
    static func compress(_ input: [UInt8], dictionary: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let preset = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
        guard preset == Z_OK else { return nil }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// `input` decompressed with `dictionary`; `nil` when it is not one complete zlib stream made with
    /// that dictionary (its checksum included), has bytes after its end, or expands past `limit` bytes.
    static func decompress(_ input: [UInt8], dictionary: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(4_096, min(limit, input.count * 4)))
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, target.count - Int(stream.avail_out))
                }
                guard output.count + produced <= limit else { return nil }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: continue
                case Z_NEED_DICT:
                    // The stream names its dictionary by Adler-32; zlib refuses any other.
                    let preset = dictionary.withUnsafeBufferPointer { inflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
                    guard preset == Z_OK else { return nil }
                case Z_BUF_ERROR where produced > 0: continue
                default: return nil
                }
            }
        }
    }
}

extension Data {
    /// The bytes, copied at once (iterating `Data` byte by byte costs a call each).
    var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0.bindMemory(to: UInt8.self)) } }
}
