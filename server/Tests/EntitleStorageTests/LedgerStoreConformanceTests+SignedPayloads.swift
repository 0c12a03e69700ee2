import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

extension LedgerStoreConformanceTests {
    @Test(
        "signed payloads are stored compact, each chain once, and read back byte for byte: they verify again after reopening",
        arguments: StorageEngine.databases)
    func signedPayloadsCompact(engine: StorageEngine) async throws {
        let samples = try SignedPayloadSamples()
        let events = try samples.events(user: "u1", original: "1000", periods: 6)
        let raw = events.compactMap(\.rawSignedPayload)
        try await engine.withReopenedStore { store in
            for event in events { _ = try await store.append(event) }
        } then: { store in
            // A new process: its cache of chains is empty, so reading fetches the chain once.
            let read = try await store.events(appUserID: "u1")
            #expect(read == events)
            #expect(read.compactMap(\.rawSignedPayload) == raw)
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: samples.apple.bundleID, environment: .sandbox, rootCertificates: [samples.pki.root]),
                now: { ReferenceTime.start })
            for event in read.dropLast() {
                let verified = try await verifier.verifyNotification(try #require(event.rawSignedPayload))
                #expect(verified.transactionInfo?.transactionId == event.transactionID)
            }
            #expect(try await verifier.verifyTransaction(try #require(read.last?.rawSignedPayload)).transactionId == "1000-0")

            let engine = try #require(store as? SQLLedgerStore).engine
            let stored = try await engine.read { session throws(StorageError) in
                try await session.execute("SELECT signed_payload FROM ledger_events ORDER BY sequence", []).map { row throws(StorageError) in try row.text("signed_payload") }
            }
            #expect(stored.count == raw.count)
            #expect(stored.allSatisfy { $0.hasPrefix(StoredSignedPayload.prefix) })
            let storedBytes = stored.map(\.utf8.count).reduce(0, +)
            let rawBytes = raw.map(\.utf8.count).reduce(0, +)
            #expect(Double(storedBytes) < 0.12 * Double(rawBytes))
            let chains = try await engine.read { session throws(StorageError) in
                try await session.execute("SELECT COUNT(*) AS n FROM certificate_chains", []).first?.nullableInteger("n")
            }
            #expect(chains == 1)
        }
    }

    @Test(
        "a stored signed payload that does not read back, or names a chain that is not stored, is a corrupt record",
        arguments: StorageEngine.databases)
    func damagedSignedPayload(engine: StorageEngine) async throws {
        let samples = try SignedPayloadSamples()
        let events = try samples.events(user: "u1", original: "1000", periods: 1)
        try await engine.withReopenedStore { store in
            for event in events { _ = try await store.append(event) }
            let engine = try #require(store as? SQLLedgerStore).engine
            try await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("DELETE FROM certificate_chains", [])
            }
        } then: { store in
            await #expect(throws: StorageError.self) { _ = try await store.events(appUserID: "u1") }
            do {
                _ = try await store.events(appUserID: "u1")
            } catch let error as StorageError {
                #expect(error.code == .corruptRecord)
                #expect(error.message.contains("certificate chain"))
            }
            let engine = try #require(store as? SQLLedgerStore).engine
            try await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("UPDATE ledger_events SET signed_payload = '~1eJwDAAAAAAE='", [])
            }
            do {
                _ = try await store.events(appUserID: "u1")
                Issue.record("a damaged stored payload must not read")
            } catch let error as StorageError {
                #expect(error.code == .corruptRecord)
            }
            // The fold never reads the signed payload: the subscriber's answer stands.
            #expect(try await store.projection(appUserID: "u1") != nil)
        }
    }
}
