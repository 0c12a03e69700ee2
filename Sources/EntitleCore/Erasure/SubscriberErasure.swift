import Foundation

/// A customer's deletion (their "delete account"): what becomes of the ledger's events about them. One
/// rule set, used by every store.
///
/// The ledger stays append-only in what it means: no event is dropped, Apple's signed data and every
/// financial fact stay as they were, so analytics, exports and Apple's records still add up. What
/// identifies the person is made unreadable where it is stored:
/// - the app user ID becomes a random ``pseudonym`` on the customer's own events and wherever another
///   subscriber's event names them (a transfer, a log-in merge, a claim, a household);
/// - on the customer's own events, the attributes the app set (email, display name, locale and the
///   app's own; not the time zone, which places quota windows), the names of registered items, and the
///   operator's free-text reasons are removed.
///
/// The pseudonym is random, so nothing derives it from the erased ID; the erased ID is not kept.
public struct SubscriberErasure: Sendable, Hashable {
    /// What begins every pseudonym: `$erased:` and 32 hexadecimal digits.
    public static let pseudonymPrefix = "$erased:"

    /// The customer being erased.
    public let subject: AppUserID
    /// What names them from now on.
    public let pseudonym: AppUserID
    /// When the deletion was asked for.
    public let at: Date

    public init(subject: AppUserID, pseudonym: AppUserID, at: Date) {
        self.subject = subject
        self.pseudonym = pseudonym
        self.at = at
    }

    /// A new random pseudonym, from `generator` (the system's in production).
    public static func newPseudonym<G: RandomNumberGenerator>(using generator: inout G) -> AppUserID {
        let digits = (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return AppUserID(pseudonymPrefix + digits.joined())
    }

    /// The event that records the deletion on the pseudonym's timeline.
    public func event(id: UUID) -> LedgerEvent {
        LedgerEvent(
            id: id, appUserID: pseudonym, source: .admin, idempotencyKey: "erased:\(pseudonym)", signedDate: at, receivedAt: at,
            payload: .subscriberErased(at: at))
    }

    /// One of the customer's own events, erased: theirs under the pseudonym, without what identifies them.
    /// An event the app or an operator made has its idempotency key replaced by one from its ID (the app's
    /// keys may hold what it sent: attribute values, item names); Apple's keep theirs, renamed.
    public func erasingOwn(_ event: LedgerEvent) -> LedgerEvent {
        var event = renaming(event)
        if !Self.appleSources.contains(event.source) { event.idempotencyKey = "erased:\(event.id.uuidString.lowercased())" }
        switch event.payload {
        case .attributesSet(let values):
            event.payload = .attributesSet(Self.erased(values))
        case .item(var change):
            change.name = nil
            event.payload = .item(change)
        case .grant(var grant):
            grant.reason = nil
            event.payload = .grant(grant)
        case .override(var override):
            override.reason = nil
            event.payload = .override(override)
        case .appTrialExtended(var extension_):
            extension_.reason = nil
            event.payload = .appTrialExtended(extension_)
        case .subscriberMerged(let from, let into, let facts?):
            event.payload = .subscriberMerged(from: from, into: into, facts: erasingOwn(facts))
        default:
            break
        }
        return event
    }

    /// Another subscriber's event, with every mention of the customer replaced by the pseudonym.
    public func renaming(_ event: LedgerEvent) -> LedgerEvent {
        var event = event
        if event.appUserID == subject { event.appUserID = pseudonym }
        if event.idempotencyKey.contains(subject.rawValue) {
            event.idempotencyKey = event.idempotencyKey.replacingOccurrences(of: subject.rawValue, with: pseudonym.rawValue)
        }
        switch event.payload {
        case .purchaseTransferred(let original, let from, let to, let facts):
            event.payload = .purchaseTransferred(
                originalTransactionID: original, from: from.map(renamed), to: renamed(to), facts: facts.map(renaming))
        case .subscriberMerged(let from, let into, let facts):
            event.payload = .subscriberMerged(from: renamed(from), into: renamed(into), facts: facts.map(renaming))
        case .purchaseClaimed(let original, let by, let at):
            event.payload = .purchaseClaimed(originalTransactionID: original, by: renamed(by), at: at)
        case .householdJoined(let household, let at):
            event.payload = .householdJoined(householdID: renamed(household), at: at)
        case .householdLeft(let household, let at):
            event.payload = .householdLeft(householdID: renamed(household), at: at)
        default:
            break
        }
        return event
    }

    /// Facts carried by an event (a merge's), with every mention of the customer replaced.
    public func renaming(_ facts: SubscriberFacts) -> SubscriberFacts {
        var facts = facts
        facts.appUserID = renamed(facts.appUserID)
        facts.purchases = facts.purchases.mapValues(renaming)
        facts.purchaseClaims = facts.purchaseClaims.mapValues(renamedKeys)
        facts.households = Dictionary(facts.households.map { (renamed($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        return facts
    }

    /// A purchase chain's facts, with the customer's claims on it under the pseudonym.
    public func renaming(_ chain: SubscriptionFacts) -> SubscriptionFacts {
        var chain = chain
        chain.renameClaimant(subject, to: pseudonym)
        return chain
    }

    /// Facts the customer's own event carries, renamed and without what identifies them.
    public func erasingOwn(_ facts: SubscriberFacts) -> SubscriberFacts {
        var facts = renaming(facts)
        facts.attributeValues = facts.attributeValues.filter { $0.key == SubscriberAttribute.timeZone.rawValue }
        for (limit, registry) in facts.items {
            facts.items[limit] = registry.mapValues { item in
                var item = item
                item.forgetName()
                return item
            }
        }
        facts.grants = facts.grants.map { grant in
            var grant = grant
            grant.reason = nil
            return grant
        }
        facts.overrides = facts.overrides.map { override in
            var override = override
            override.reason = nil
            return override
        }
        facts.appTrialExtensions = facts.appTrialExtensions.mapValues { extension_ in
            var extension_ = extension_
            extension_.reason = nil
            return extension_
        }
        return facts
    }

    /// The sources of Apple's signed data, whose idempotency keys are made of Apple's identifiers.
    static let appleSources: Set<LedgerEventSource> = [.appStoreNotification, .appTransaction, .appStoreServerAPI, .import]

    /// The attributes an erased event sets: the time zone as it was, every other one cleared.
    static func erased(_ values: [String: String?]) -> [String: String?] {
        Dictionary(uniqueKeysWithValues: values.map { key, value in (key, key == SubscriberAttribute.timeZone.rawValue ? value : nil) })
    }

    private func renamed(_ id: AppUserID) -> AppUserID { id == subject ? pseudonym : id }

    private func renamedKeys(_ claims: [String: Date]) -> [String: Date] {
        Dictionary(claims.map { ($0.key == subject.rawValue ? pseudonym.rawValue : $0.key, $0.value) }, uniquingKeysWith: { min($0, $1) })
    }

    /// Whether `event` (anyone's) mentions the customer anywhere the erasure rewrites.
    public func mentionsSubject(_ event: LedgerEvent) -> Bool { renaming(event) != event }
}

extension AppUserID {
    /// Whether the ID is a deleted customer's pseudonym (``SubscriberErasure/pseudonymPrefix``): what is
    /// kept under it is the financial record, no one's account.
    public var isErased: Bool { rawValue.hasPrefix(SubscriberErasure.pseudonymPrefix) }
}
