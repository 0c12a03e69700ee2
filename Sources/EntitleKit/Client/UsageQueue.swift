import Foundation

/// Uses recorded while offline, on disk until the server stored them: each keeps its idempotency key,
/// so sending it again after a crash counts it once.
final class UsageQueue: @unchecked Sendable {
    struct Item: Codable, Hashable, Sendable {
        var appUserID: String
        var feature: String
        var amount: Int
        var idempotencyKey: String
    }

    let file: URL
    /// Guards the file (NSLock: the SDK runs on iOS 17, before Synchronization's Mutex).
    private let lock = NSLock()

    init(file: URL) {
        self.file = file
    }

    func items() -> [Item] {
        lock.withLock { read() }
    }

    func enqueue(_ item: Item) {
        lock.withLock {
            var all = read()
            guard !all.contains(where: { $0.idempotencyKey == item.idempotencyKey && $0.feature == item.feature }) else { return }
            all.append(item)
            write(all)
        }
    }

    func remove(_ item: Item) {
        lock.withLock { write(read().filter { $0 != item }) }
    }

    private func read() -> [Item] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        return (try? JSONDecoder().decode([Item].self, from: data)) ?? []
    }

    private func write(_ items: [Item]) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(items).write(to: file, options: .atomic)
    }
}
