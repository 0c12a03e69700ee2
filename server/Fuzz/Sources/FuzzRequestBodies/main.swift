import EntitleWire
import Foundation
import FuzzSupport

/// Decodes every input as each JSON body the server reads, with the server's coder: any input must
/// decode or throw, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let data = Data(bytes: bytes, count: count)
    let decoder = WireJSON.decoder
    _ = try? decoder.decode(AppStoreNotificationRequest.self, from: data)
    _ = try? decoder.decode(SubmitTransactionRequest.self, from: data)
    _ = try? decoder.decode(RecordUsageRequest.self, from: data)
    _ = try? decoder.decode(GrantRequest.self, from: data)
    _ = try? decoder.decode(OverrideRequest.self, from: data)
    _ = try? decoder.decode(OpenAccessRequest.self, from: data)
    _ = try? decoder.decode(SubscriberResponse.self, from: data)
    _ = try? decoder.decode(AccessResponse.self, from: data)
    _ = try? decoder.decode(RegisterItemRequest.self, from: data)
    _ = try? decoder.decode(RenameItemRequest.self, from: data)
    _ = try? decoder.decode(ItemRegistrationResponse.self, from: data)
    return 0
}

runFuzzer(fuzz)
