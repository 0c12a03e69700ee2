import SwiftASN1
import X509

/// Apple's App Store policy on top of RFC 5280: exactly leaf → intermediate → root, with Apple's
/// marker extension on the leaf and the intermediate.
struct AppStoreChainPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "App Store chains are leaf, intermediate and root; this one has \(chain.count) certificates")
        }
        guard chain[0].extensions.contains(where: { $0.oid == AppleOIDs.leafMarker }) else {
            return .failsToMeetPolicy(reason: "the leaf lacks Apple's OID 1.2.840.113635.100.6.11.1")
        }
        guard chain[1].extensions.contains(where: { $0.oid == AppleOIDs.intermediateMarker }) else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's OID 1.2.840.113635.100.6.2.1")
        }
        return .meetsPolicy
    }
}
