import EntitleCore
import Foundation
import FuzzSupport

@testable import EntitleStorage

/// Reads every input as a stored ledger event both ways: what `StoredEventReader` reads must be exactly
/// what `JSONDecoder` reads from the same text; anything else it must leave to `JSONDecoder`. What it
/// reads, `StoredEventWriter` must write back exactly as `JSONEncoder` does, or leave to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let json = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let read = StoredEventReader.event(json) else { return 0 }
    let decoded = try? SQLLedgerStore.decoder().decode(LedgerEvent.self, from: Data(json.utf8))
    guard read == decoded else { fatalError("the reader and JSONDecoder disagree on \(json): \(read) vs \(String(describing: decoded))") }
    // Written back, the event is what JSONEncoder writes, or left to it.
    if let written = StoredEventWriter.json(read), let encoded = try? SQLLedgerStore.encoder.encode(read),
        written != String(decoding: encoded, as: UTF8.self)
    {
        fatalError("the writer and JSONEncoder disagree on \(read): \(written)")
    }
    return 0
}

runFuzzer(fuzz)
