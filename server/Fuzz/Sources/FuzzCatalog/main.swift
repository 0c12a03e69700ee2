import EntitleCore
import Foundation
import FuzzSupport

/// The catalog loader on an input `STOREKIT \0 ENTITLEMENTS` (seeds: the example apps): each part is
/// also tried beside the other file of a valid example, so both parsers see mostly-valid neighbours.
/// Any input must load or be refused with problems, never crash.
enum Target {
    static let example = packageRoot.appendingPathComponent("Examples/ScreenTimeRewards")
    static let validStoreKit = try! Data(contentsOf: example.appendingPathComponent("Configuration.storekit"))
    static let validEntitlements = try! Data(contentsOf: example.appendingPathComponent("entitlements.json"))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
    let data = Data(bytes: bytes, count: count)
    let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let storeKit = parts.first.map { Data($0) } ?? Data()
    let entitlements = parts.count > 1 ? Data(parts[1]) : data
    let loader = CatalogLoader()
    for (kit, document) in [(storeKit, entitlements), (Target.validStoreKit, entitlements), (storeKit, Target.validEntitlements)] {
        _ = try? loader.load(storeKit: kit, storeKitName: "Configuration.storekit", entitlements: document, entitlementsName: "entitlements.json")
    }
    return 0
}

runFuzzer(fuzz)
