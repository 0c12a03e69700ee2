import AppStoreModels
import Foundation
import FuzzSupport

/// Decodes every input as each of Apple's payloads, as the verifier does once a signature checks:
/// any input must decode or throw, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let data = Data(bytes: bytes, count: count)
    let decoder = AppStoreJSON.decoder()
    _ = try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: data)
    _ = try? decoder.decode(JWSTransactionDecodedPayload.self, from: data)
    _ = try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: data)
    _ = try? decoder.decode(AppTransaction.self, from: data)
    return 0
}

runFuzzer(fuzz)
