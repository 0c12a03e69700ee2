import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

/// What the simulated apps do with seed 004's child devices: when the catalog declares a numeric limit,
/// each arrival pairs one to three devices, and a buyer one more after buying. Every pairing goes
/// through the server, which registers it or refuses it at the limit. Its own random sequence, so the
/// population's other choices are the same with or without devices.
struct DevicePlayer {
    /// The limit devices count against (the catalog's first), or `nil` when it declares none.
    let limit: String?
    private var generator: SeededGenerator
    private var next = 0

    init(seed: UInt64, catalog: Catalog) {
        self.limit = catalog.limits.first
        self.generator = SeededGenerator(seed: seed ^ 0x4445_5649)
    }

    /// How many devices an arrival pairs.
    mutating func arrivalCount() -> Int { limit == nil ? 0 : Int.random(in: 1...3, using: &generator) }

    /// Pairs `count` new devices for `appUserID`: how many the server registered and refused.
    mutating func pair(_ count: Int, for appUserID: String, app: SubscriberAPIClient) async throws(LocalStoreError) -> (registered: Int, refused: Int) {
        guard let limit, count > 0 else { return (0, 0) }
        var outcome = (registered: 0, refused: 0)
        for _ in 0..<count {
            next += 1
            let id = "device-\(next)"
            let answer: ItemRegistrationResponse
            do {
                answer = try await app.registerItem(appUserID, limit: limit, id: id, name: "Child device \(next)")
            } catch {
                throw LocalStoreError(.deliveryFailed, error.description)
            }
            if answer.registered { outcome.registered += 1 } else { outcome.refused += 1 }
        }
        return outcome
    }

    /// Whether the server's answer about one subscriber's devices holds together: the paused ones are
    /// the newest, the active ones fit the limit, and when any is paused the limit has no room for it.
    func check(_ response: SubscriberResponse, app: SubscriberAPIClient) async throws(LocalStoreError) -> (paused: Int, consistent: Bool) {
        guard let limit else { return (0, true) }
        let items = response.items.filter { $0.limit == limit }
        let active = items.filter { !$0.isPaused }, paused = items.filter(\.isPaused)
        guard !items.isEmpty else { return (0, true) }
        let newestActive = active.map(\.addedAt).max() ?? .distantPast
        var consistent = paused.allSatisfy { $0.addedAt >= newestActive }
        do throws(APIClientError) {
            if !active.isEmpty {
                let fits = try await app.access(response.appUserID, feature: limit, usage: active.count)
                consistent = consistent && fits.outcome != .denied
            }
            if !paused.isEmpty {
                let room = try await app.access(response.appUserID, feature: limit, usage: active.count + 1)
                consistent = consistent && room.outcome == .denied
            }
        } catch {
            throw LocalStoreError(.deliveryFailed, error.description)
        }
        return (paused.count, consistent)
    }
}
