import EntitleCore
import Foundation
import NIOConcurrencyHelpers

/// The certificate chains of the stored signed payloads (``StoredSignedPayload``): each distinct chain is one
/// row of `certificate_chains`, written once before the first event that refers to it, shared by
/// every app on the engine. The chains this process has written or read are kept here (a few: Apple
/// signs with a handful), so an append or a read costs no statement for them.
final class CertificateChainCache: Sendable {
    private let known: NIOLockedValueBox<BoundedDictionary<ChainDigest, [UInt8]>>

    init(capacity: Int = 256) {
        self.known = NIOLockedValueBox(BoundedDictionary(capacity: capacity))
    }

    func chain(_ digest: ChainDigest) -> [UInt8]? { known.withLockedValue { $0[digest] } }

    /// `event`'s row: its JSON, and its signed payload in the compact form with every chain it refers
    /// to stored (durably, before the caller's transaction stores the event).
    func row(_ event: LedgerEvent, _ engine: any SQLEngine) async throws(StorageError) -> StoredEventRow {
        let json = try StoredJSON.encode(event)
        guard let raw = event.rawSignedPayload else { return StoredEventRow(json: json, signedPayload: nil) }
        let encoded = StoredSignedPayload.encode(raw)
        let missing = encoded.chains.filter { chain($0.key) == nil }
        if !missing.isEmpty {
            try await engine.statement { session throws(StorageError) in
                for (digest, chain) in missing {
                    _ = try await session.execute(
                        "INSERT INTO certificate_chains (digest, chain) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING",
                        [.text(digest.hex), .text(String(decoding: chain, as: UTF8.self))])
                }
            }
            known.withLockedValue { known in for (digest, chain) in missing { known.set(chain, for: digest) } }
        }
        return StoredEventRow(json: json, signedPayload: encoded.stored)
    }

    /// `events` with their signed payloads as received, read back from their stored form.
    func expand(_ events: [LedgerEvent], _ engine: any SQLEngine) async throws(StorageError) -> [LedgerEvent] {
        var events = events
        for index in events.indices {
            guard let stored = events[index].rawSignedPayload, stored.hasPrefix("~") else { continue }
            events[index].rawSignedPayload = try await expand(stored, event: events[index].id, engine)
        }
        return events
    }

    private func expand(_ stored: String, event: UUID, _ engine: any SQLEngine) async throws(StorageError) -> String {
        // Each pass fetches one chain this process lacks; a payload refers to a few at most.
        for _ in 0..<8 {
            switch Result(catching: { () throws(StoredSignedPayload.Failure) -> String in try StoredSignedPayload.decode(stored) { chain($0) } }) {
            case .success(let payload):
                return payload
            case .failure(.missingChain(let digest)):
                let text = try await engine.read { session throws(StorageError) in
                    try await session.execute("SELECT chain FROM certificate_chains WHERE digest = ?", [.text(digest.hex)]).first?.nullableText("chain")
                }
                guard let text else {
                    throw StorageError(.corruptRecord, "the signed payload of event \(event) refers to certificate chain \(digest), which is not stored")
                }
                known.withLockedValue { $0.set(Array(text.utf8), for: digest) }
            case .failure(.corrupt(let reason)):
                throw StorageError(.corruptRecord, "the signed payload of event \(event) does not read back: \(reason)")
            }
        }
        throw StorageError(.corruptRecord, "the signed payload of event \(event) refers to too many certificate chains")
    }
}
