@_spi(FixedExpiryValidationTime) import X509
import AppStoreModels
import Crypto
import Foundation

/// Validates an App Store certificate chain with swift-certificates' `Verifier` (RFC 5280 plus
/// ``AppStoreChainPolicy``), and when it fails, says precisely why.
struct ChainValidator: Sendable {
    let roots: [Certificate]
    let revocation: RevocationChecking?

    /// Validates `leaf` ← `intermediate` ← one of `roots` at `time`. The third x5c certificate is
    /// never considered: trust comes only from the configured roots.
    func validate(leaf: Certificate, intermediate: Certificate, at time: Date) async throws(VerificationError) -> ValidatedChain {
        // swift-certificates traps on an instant it can't write as an X.509 time (past year 9999):
        // no instant outside the payloads' range reaches it.
        guard AppStoreValueRanges.isPlausible(time) else {
            throw VerificationError(.valueOutOfRange, "the verification instant \(time.timeIntervalSince1970) s since 1970 lies outside \(AppStoreValueRanges.instantsDescription)")
        }
        let result: CertificateValidationResult
        let probe = revocation.map { RevocationProbe(requester: $0.transport) }
        if let probe {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                RFC5280Policy(fixedExpiryValidationTime: time)
                AppStoreChainPolicy()
                OCSPVerifierPolicy(failureMode: .hard, requester: probe, fixedExpiryValidationTime: time)
            }
            result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        } else {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                RFC5280Policy(fixedExpiryValidationTime: time)
                AppStoreChainPolicy()
            }
            result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        }
        switch result {
        case .validCertificate(let chain) where chain.count == 3 && chain[0] == leaf && chain[1] == intermediate:
            guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
                throw VerificationError(.invalidChain, "the leaf certificate's key is not a P-256 key")
            }
            let from = max(chain[0].notValidBefore, chain[1].notValidBefore, chain[2].notValidBefore)
            let until = min(chain[0].notValidAfter, chain[1].notValidAfter, chain[2].notValidAfter)
            guard from <= until else {
                throw VerificationError(.certificateExpired, "the chain's certificates are never valid at the same time")
            }
            let validity = from...until
            return ValidatedChain(signingKey: key, validity: validity, checkedAt: probe == nil ? nil : time)
        case .validCertificate:
            throw VerificationError(.invalidChain, "the chain does not run leaf, intermediate, trusted root")
        case .couldNotValidate(let failures):
            throw diagnose(leaf: leaf, intermediate: intermediate, at: time, failures: failures, probe: probe)
        }
    }

    /// The most precise reason a chain failed, checked in the order a reader would.
    private func diagnose(
        leaf: Certificate, intermediate: Certificate, at time: Date,
        failures: [CertificateValidationResult.PolicyFailure], probe: RevocationProbe?
    ) -> VerificationError {
        guard leaf.issuer == intermediate.subject, intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            return VerificationError(.invalidChain, "the leaf certificate is not signed by the intermediate")
        }
        let issuers = roots.filter { $0.subject == intermediate.issuer }
        guard issuers.contains(where: { $0.publicKey.isValidSignature(intermediate.signature, for: intermediate) }) else {
            return VerificationError(
                .untrustedRoot,
                issuers.isEmpty
                    ? "the intermediate's issuer \(intermediate.issuer) is not a trusted root"
                    : "the intermediate claims a trusted root's name but that root did not sign it")
        }
        if !intermediate.extensions.contains(where: { $0.oid == AppleOIDs.intermediateMarker }) {
            return VerificationError(.missingAppleExtension, "the intermediate lacks Apple's OID 1.2.840.113635.100.6.2.1")
        }
        if !leaf.extensions.contains(where: { $0.oid == AppleOIDs.leafMarker }) {
            return VerificationError(.missingAppleExtension, "the leaf lacks Apple's OID 1.2.840.113635.100.6.11.1")
        }
        for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate)] + issuers.map({ ("root", $0) }) {
            if time < certificate.notValidBefore || time > certificate.notValidAfter {
                return VerificationError(
                    .certificateExpired,
                    "the \(name) certificate is valid from \(certificate.notValidBefore) to \(certificate.notValidAfter), not at \(time)")
            }
        }
        switch try? intermediate.extensions.basicConstraints {
        case .isCertificateAuthority?: break
        default: return VerificationError(.invalidChain, "the intermediate certificate is not a certificate authority")
        }
        if let probe, let outcome = probe.outcome {
            return outcome
        }
        let reasons = failures.map { String(describing: $0.policyFailureReason) }.joined(separator: "; ")
        return VerificationError(.invalidChain, "the chain is not valid: \(reasons.isEmpty ? "no path to a trusted root" : reasons)")
    }
}

