import EntitleAnalytics
import EntitleCore
import Foundation
import FuzzSupport

@testable import EntitleStorage

/// Reads every input as a stored ledger event both ways: what `StoredEventReader` reads must be exactly
/// what `JSONDecoder` reads from the same text; anything else it must leave to `JSONDecoder`. What it
/// reads, `StoredEventWriter` must write back exactly as `JSONEncoder` does, or leave to it. Then as a
/// subscriber's stored analytics cells, the same way: `StoredAnalyticsCells`' reader beside
/// `JSONDecoder`, and what either reads written back and read again unchanged. Then as a signed payload:
/// its stored form reads back byte for byte, and the input read as a stored form (as text, and as the
/// bytes inside one, deflated) is refused with a reason or read, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let json = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    checkCells(json)
    checkSignedPayload(Array(UnsafeBufferPointer(start: bytes, count: count)))
    // The event column's compact form: what it keeps reads back; any stored text reads or is refused.
    guard StoredEventJSON.expand(StoredEventJSON.compact(json)) == json else { fatalError("\(json) does not read back from its compact form") }
    _ = StoredEventJSON.expand(json)
    guard let read = StoredEventReader.event(json) else { return 0 }
    let decoded = try? StoredJSON.decoder().decode(LedgerEvent.self, from: Data(json.utf8))
    guard read == decoded else { fatalError("the reader and JSONDecoder disagree on \(json): \(read) vs \(String(describing: decoded))") }
    // Written back, the event is what JSONEncoder writes, or left to it.
    if let written = StoredEventWriter.json(read), let encoded = try? StoredJSON.encoder.encode(read),
        written != String(decoding: encoded, as: UTF8.self)
    {
        fatalError("the writer and JSONEncoder disagree on \(read): \(written)")
    }
    return 0
}

func checkCells(_ json: String) {
    let read = StoredAnalyticsCells.read(json)
    let decoded = try? StoredAnalyticsCells.decoded(json, appUserID: "fuzz")
    if let read, read != decoded {
        fatalError("the cells reader and JSONDecoder disagree on \(json): \(read) vs \(String(describing: decoded))")
    }
    guard let cells = read ?? decoded else { return }
    let written = StoredAnalyticsCells.encode(cells)
    guard (try? StoredAnalyticsCells.decode(written, appUserID: "fuzz")) == cells else {
        fatalError("cells written as \(written) do not read back as \(cells)")
    }
}

func checkSignedPayload(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let encoded = StoredSignedPayload.encode(text)
    guard (try? StoredSignedPayload.decode(encoded.stored) { encoded.chains[$0] }) == text else {
        fatalError("\(text) stored as \(encoded.stored) does not read back")
    }
    let chain = Array("[\"MIIB\"]".utf8)
    _ = try? StoredSignedPayload.decode(text) { _ in chain }
    if let deflated = Deflate.compress(bytes, dictionary: StoredSignedPayloadDictionary.bytes) {
        _ = try? StoredSignedPayload.decode(StoredSignedPayload.prefix + Data(deflated).base64EncodedString()) { _ in chain }
    }
}

runFuzzer(fuzz)
