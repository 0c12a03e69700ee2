import AppStoreModels
import Crypto
import FastJSON
import Foundation
import P256FixedKey
import SwiftASN1
import X509

/// Verifies data the App Store signed — transactions, renewal info, notifications, app
/// transactions — and decodes it. Never skipped, never trusting the chain's own root.
///
/// A JWS is accepted only if its `alg` is ES256; its x5c holds exactly three certificates (one, for
/// the Xcode environment, equal to a configured certificate); leaf ← intermediate ← a configured root
/// is a valid RFC 5280 path carrying Apple's marker OIDs, valid at the payload's signedDate (or now,
/// with online checks); the 64-byte r‖s signature over `header.payload` verifies with the leaf's
/// P-256 key; and the payload's bundle, environment and (in production) app Apple ID are the
/// configured ones. A notification's nested signed parts go through the same checks.
///
/// Validated chains are cached by their exact header bytes, with SHA-256 having read the header, so
/// the steady-state cost is one P-256 verification, hashing the payload and reading it
/// (`AppStoreJSON.decode(_:from:)`). Safe to share between tasks.
public final class SignedDataVerifier: Sendable {
    public let configuration: VerifierConfiguration
    private let validator: ChainValidator
    private let cache: ChainCache
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock, read only for online checks and for payloads without a signedDate.
    public init(configuration: VerifierConfiguration, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.validator = ChainValidator(roots: configuration.rootCertificates, revocation: configuration.revocation)
        self.cache = ChainCache(capacity: configuration.cacheCapacity)
        self.now = now
    }

    /// How many validated chains are cached.
    public var cachedChainCount: Int { cache.count }

    /// Forgets every validated chain (the next verification validates its chain again).
    public func clearCache() { cache.removeAll() }

    public func verifyTransaction(_ signed: String) async throws(VerificationError) -> JWSTransactionDecodedPayload {
        let transaction = try await verify(signed, as: JWSTransactionDecodedPayload.self, kind: "transaction", signedDate: \.signedDate, ranges: \.outOfRangeValue)
        try check(bundleID: transaction.bundleId)
        try check(environment: transaction.environment)
        return transaction
    }

    public func verifyRenewalInfo(_ signed: String) async throws(VerificationError) -> JWSRenewalInfoDecodedPayload {
        let info = try await verify(signed, as: JWSRenewalInfoDecodedPayload.self, kind: "renewal info", signedDate: \.signedDate, ranges: \.outOfRangeValue)
        try check(environment: info.environment)
        return info
    }

    public func verifyAppTransaction(_ signed: String) async throws(VerificationError) -> AppTransaction {
        // App transactions from older StoreKit versions carry no signedDate; their receiptCreationDate is
        // the instant Apple created and signed them.
        let transaction = try await verify(signed, as: AppTransaction.self, kind: "app transaction", signedDate: \.signingInstant, ranges: \.outOfRangeValue)
        try check(bundleID: transaction.bundleId)
        try check(environment: transaction.receiptType)
        try check(appAppleID: transaction.appAppleId, environment: transaction.receiptType)
        return transaction
    }

    /// Verifies a notification's `signedPayload` and its nested signed transaction, renewal info and
    /// app transaction.
    public func verifyNotification(_ signedPayload: String) async throws(VerificationError) -> VerifiedNotification {
        let notification = try await verify(signedPayload, as: ResponseBodyV2DecodedPayload.self, kind: "notification", signedDate: \.signedDate, ranges: \.outOfRangeValue)
        let bundleID: String?
        let appAppleID: Int64?
        let environment: Environment?
        if let data = notification.data {
            (bundleID, appAppleID, environment) = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary = notification.summary {
            (bundleID, appAppleID, environment) = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = notification.externalPurchaseToken {
            (bundleID, appAppleID, environment) = (token.bundleId, token.appAppleId, token.environment)
        } else if let appData = notification.appData {
            (bundleID, appAppleID, environment) = (appData.bundleId, appData.appAppleId, appData.environment)
        } else {
            throw VerificationError(.malformed, "the notification has none of data, summary, externalPurchaseToken and appData")
        }
        try check(bundleID: bundleID)
        try check(environment: environment)
        try check(appAppleID: appAppleID, environment: environment)

        var verified = VerifiedNotification(notification: notification)
        if let signed = notification.data?.signedTransactionInfo {
            verified.transactionInfo = try await verifyTransaction(signed)
        }
        if let signed = notification.data?.signedRenewalInfo {
            verified.renewalInfo = try await verifyRenewalInfo(signed)
        }
        if let signed = notification.appData?.signedAppTransactionInfo {
            verified.appTransactionInfo = try await verifyAppTransaction(signed)
        }
        return verified
    }

    /// Verifies the `signedPayload` of Apple's real-time Get Retention Message request: the App Store's
    /// signature and chain as for every signed datum, the environment, and in production the app's Apple
    /// ID (the request names no bundle). The subscription and its product must be named.
    public func verifyRealtimeRequest(_ signedPayload: String) async throws(VerificationError) -> DecodedRealtimeRequestBody {
        let request = try await verify(
            signedPayload, as: DecodedRealtimeRequestBody.self, kind: "realtime request", signedDate: \.signedDate, ranges: \.outOfRangeValue)
        try check(environment: request.environment)
        try check(appAppleID: request.appAppleId, environment: request.environment)
        guard let original = request.originalTransactionId, !original.isEmpty, let product = request.productId, !product.isEmpty else {
            throw VerificationError(.malformed, "the realtime request names no subscription (originalTransactionId and productId)")
        }
        return request
    }

    // MARK: - The JWS

    private func verify<Payload: Decodable>(
        _ text: String, as type: Payload.Type, kind: String, signedDate: KeyPath<Payload, Date?>,
        ranges: KeyPath<Payload, OutOfRangeValue?>
    ) async throws(VerificationError) -> Payload {
        let size = text.utf8.count
        guard size <= configuration.maximumInputSize else {
            throw VerificationError(.payloadTooLarge, "\(size) bytes exceeds the limit of \(configuration.maximumInputSize)")
        }
        let jws = try CompactJWS(text)
        guard jws.signature.count == 64 else {
            throw VerificationError(.invalidSignature, "an ES256 signature is 64 bytes (r‖s); this one is \(jws.signature.count)")
        }

        // Warm path: the exact header was validated before.
        if let hit = cache.lookup(jws.headerSegment), isFresh(hit.chain) {
            try verifySignature(jws, key: hit.chain.signingKey, verifier: hit.verifier, headerHash: hit.headerHash)
            let payload = try decode(jws.payload, as: type, kind: kind, ranges: ranges)
            if hit.chain.validity.contains(validationInstant(payload[keyPath: signedDate])) {
                return payload
            }
            // Outside the cached chain's validity: validate again to say precisely why.
        }

        let header = try jws.decodeHeader()
        guard header.alg == "ES256" else {
            throw VerificationError(.unsupportedAlgorithm, "alg \(header.alg.map { "\"\($0)\"" } ?? "(missing)") is not ES256")
        }
        guard let x5c = header.x5c else {
            throw VerificationError(.malformed, "the header has no x5c certificate chain")
        }
        let expectedLength = configuration.environment == .xcode ? 1 : 3
        guard x5c.count == expectedLength else {
            throw VerificationError(.chainLength, "x5c holds \(x5c.count) certificates; \(expectedLength) expected")
        }
        let certificates = try x5c.prefix(2).enumerated().map { (index, base64) throws(VerificationError) in
            try Self.certificate(base64, index: index)
        }
        // The payload is decoded before it is trusted only to read the instant to validate at; it is
        // returned only after the signature verifies.
        let payload = try decode(jws.payload, as: type, kind: kind, ranges: ranges)
        let instant = validationInstant(payload[keyPath: signedDate])

        let chain: ValidatedChain
        if configuration.environment == .xcode {
            chain = try xcodeChain(certificates[0], at: instant)
        } else {
            chain = try await validator.validate(leaf: certificates[0], intermediate: certificates[1], at: instant)
        }
        try verifySignature(jws, key: chain.signingKey)
        cache.insert(chain, for: jws.headerSegment)
        return payload
    }

    private func isFresh(_ chain: ValidatedChain) -> Bool {
        guard let revocation = configuration.revocation else { return true }
        guard let checkedAt = chain.checkedAt else { return false }
        return now().timeIntervalSince(checkedAt) < revocation.freshness
    }

    private func validationInstant(_ signedDate: Date?) -> Date {
        if configuration.revocation != nil { return now() }
        return signedDate ?? now()
    }

    /// Checks the signature over `header.payload`; with `headerHash` (SHA-256 having read exactly this
    /// JWS's header and the dot, kept with its cached chain) only the payload is hashed here, and with
    /// `verifier` (the key's comb table, kept with it too) the check costs under half.
    private func verifySignature(
        _ jws: CompactJWS, key: P256.Signing.PublicKey, verifier: P256FixedKeyVerifier? = nil, headerHash: SHA256? = nil
    ) throws(VerificationError) {
        var hasher = headerHash ?? SHA256()
        var input = headerHash == nil ? jws.signingInput : jws.payloadSegment
        input.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let digest = hasher.finalize()
        let valid: Bool
        if let verifier {
            valid = verifier.isValidSignature(jws.signature, for: digest)
        } else {
            let signature: P256.Signing.ECDSASignature
            do {
                signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
            } catch {
                throw VerificationError(.invalidSignature, "the signature is not an ECDSA P-256 signature", underlying: error)
            }
            valid = key.isValidSignature(signature, for: digest)
        }
        guard valid else {
            throw VerificationError(.invalidSignature, "the signature does not verify with the leaf certificate's key")
        }
    }

    /// The payload decoded, its values within ``AppStoreValueRanges``: an instant or amount outside
    /// them is refused before anything computes with it (the certificate check at the payload's
    /// signedDate included).
    private func decode<Payload: Decodable>(
        _ bytes: [UInt8], as type: Payload.Type, kind: String, ranges: KeyPath<Payload, OutOfRangeValue?>
    ) throws(VerificationError) -> Payload {
        let payload: Payload
        do {
            payload = try AppStoreJSON.decode(type, from: bytes)
        } catch {
            throw VerificationError(.malformed, "the payload is not a valid \(kind)", underlying: error)
        }
        if let problem = payload[keyPath: ranges] {
            throw VerificationError(.valueOutOfRange, "the \(kind)'s \(problem)")
        }
        return payload
    }

    private func xcodeChain(_ certificate: Certificate, at instant: Date) throws(VerificationError) -> ValidatedChain {
        guard configuration.xcodeCertificates.contains(certificate) else {
            throw VerificationError(
                .untrustedRoot,
                configuration.xcodeCertificates.isEmpty
                    ? "Xcode data is accepted only with the StoreKit Testing certificate exported from Xcode configured"
                    : "the Xcode signing certificate is not one of the configured ones")
        }
        guard certificate.notValidBefore <= instant, instant <= certificate.notValidAfter else {
            throw VerificationError(
                .certificateExpired,
                "the Xcode certificate is valid from \(certificate.notValidBefore) to \(certificate.notValidAfter), not at \(instant)")
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else {
            throw VerificationError(.invalidChain, "the Xcode certificate's key is not a P-256 key")
        }
        return ValidatedChain(signingKey: key, validity: certificate.notValidBefore...certificate.notValidAfter, checkedAt: nil)
    }

    private static func certificate(_ base64: String, index: Int) throws(VerificationError) -> Certificate {
        guard let der = Data(base64Encoded: base64) else {
            throw VerificationError(.malformed, "x5c[\(index)] is not base64")
        }
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw VerificationError(.malformed, "x5c[\(index)] is not a DER certificate", underlying: error)
        }
    }

    // MARK: - What the payload says

    private func check(bundleID: String?) throws(VerificationError) {
        guard bundleID == configuration.bundleID else {
            throw VerificationError(.bundleID, "the payload is for bundle \(bundleID ?? "(none)"), not \(configuration.bundleID)")
        }
    }

    private func check(environment: Environment?) throws(VerificationError) {
        guard environment == configuration.environment else {
            throw VerificationError(
                .environment, "the payload is from \(environment?.rawValue ?? "(no environment)"), not \(configuration.environment.rawValue)")
        }
    }

    private func check(appAppleID: Int64?, environment: Environment?) throws(VerificationError) {
        guard environment == .production else { return }
        guard let expected = configuration.appAppleID else {
            throw VerificationError(.appAppleID, "production data needs the app's Apple ID configured")
        }
        guard appAppleID == expected else {
            throw VerificationError(.appAppleID, "the payload is for app \(appAppleID.map(String.init) ?? "(none)"), not \(expected)")
        }
    }
}

extension AppTransaction {
    var signingInstant: Date? { signedDate ?? receiptCreationDate }
}
