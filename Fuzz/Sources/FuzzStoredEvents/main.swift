import EntitleCore
import Foundation
import FuzzSupport

@testable import EntitleStorage

/// Reads every input as a stored ledger event both ways: what `StoredEventReader` reads must be exactly
/// what `JSONDecoder` reads from the same text; anything else it must leave to `JSONDecoder`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let json = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let read = StoredEventReader.event(json) else { return 0 }
    let decoded = try? SQLLedgerStore.decoder().decode(LedgerEvent.self, from: Data(json.utf8))
    guard read == decoded else { fatalError("the reader and JSONDecoder disagree on \(json): \(read) vs \(String(describing: decoded))") }
    return 0
}

runFuzzer(fuzz)
