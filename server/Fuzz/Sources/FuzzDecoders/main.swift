import AppStoreModels
import AppStoreServerAPI
import FastJSON
import Foundation
import FuzzSupport

/// Decodes every input as each of Apple's payloads, as the verifier does once a signature checks: any
/// input must decode or throw, never crash. What `AppStorePayloadReader` reads of an input must be
/// exactly what `JSONDecoder` reads; anything else it must leave to `JSONDecoder`. The same holds for
/// `AppStoreNotificationBody`: the input as a notification's HTTP body, and as the payload a
/// notification is routed by. And as a 429's `Retry-After` header: read within a day, or not at all.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let data = Data(buffer: buffer)
    let decoder = AppStoreJSON.decoder()
    same(ResponseBodyV2DecodedPayload.self, buffer, try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: data))
    same(JWSTransactionDecodedPayload.self, buffer, try? decoder.decode(JWSTransactionDecodedPayload.self, from: data))
    same(JWSRenewalInfoDecodedPayload.self, buffer, try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: data))
    _ = try? decoder.decode(AppTransaction.self, from: data)
    _ = (try? decoder.decode(DecodedRealtimeRequestBody.self, from: data))?.outOfRangeValue
    _ = (try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: data))?.outOfRangeValue
    if let read = AppStoreNotificationBody.signedPayload(UnsafeRawBufferPointer(buffer)) {
        let decoded = try? JSONDecoder().decode(Body.self, from: data)
        guard read == decoded?.signedPayload else {
            fatalError("the body reader and JSONDecoder disagree on \(Array(buffer)): \(read) vs \(String(describing: decoded))")
        }
    }
    if let read = AppStoreNotificationBody.Route.read(buffer) {
        let decoded = try? JSONDecoder().decode(AppStoreNotificationBody.Route.self, from: data)
        guard read == decoded else {
            fatalError("the route reader and JSONDecoder disagree on \(Array(buffer)): \(read) vs \(String(describing: decoded))")
        }
    }
    let header = String(decoding: buffer, as: UTF8.self)
    if let wait = AppStoreServerAPIClient.retryWait(header, now: Date(timeIntervalSince1970: 1_764_428_400)), wait < .zero || wait > .seconds(86_400) {
        fatalError("Retry-After \(header) read as \(wait)")
    }
    _ = AppStoreNotificationBody.bundleID(ofSignedPayload: "e30.\(Base64URL.encode(buffer)).c2ln")
    _ = AppStoreNotificationBody.appAppleID(ofSignedPayload: "e30.\(Base64URL.encode(buffer)).c2ln")
    return 0
}

/// A notification's HTTP body, as `JSONDecoder` reads it.
struct Body: Decodable { var signedPayload: String }

/// Stops the run when the reader reads `buffer` as something other than what `JSONDecoder` decoded.
func same<T: Equatable>(_ type: T.Type, _ buffer: UnsafeBufferPointer<UInt8>, _ decoded: T?) {
    guard let read = AppStorePayloadReader.read(type, from: buffer) else { return }
    guard read == decoded else {
        fatalError("the reader and JSONDecoder disagree on \(Array(buffer)): \(read) vs \(String(describing: decoded))")
    }
}

runFuzzer(fuzz)
