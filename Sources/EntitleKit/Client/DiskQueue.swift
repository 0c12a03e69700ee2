import Foundation

/// What the app recorded while the server couldn't be reached, on disk until the server stored it
/// (uses, paywall events): each keeps its own ID, so sending it again after a crash stores it once.
final class DiskQueue<Item: Codable & Hashable & Sendable>: @unchecked Sendable {
    let file: URL
    /// Whether two items are the same record (the second is not queued).
    private let isSame: @Sendable (Item, Item) -> Bool
    /// Guards the file (NSLock: the SDK runs on iOS 17, before Synchronization's Mutex).
    private let lock = NSLock()

    init(file: URL, isSame: @escaping @Sendable (Item, Item) -> Bool) {
        self.file = file
        self.isSame = isSame
    }

    func items() -> [Item] {
        lock.withLock { read() }
    }

    func enqueue(_ item: Item) {
        lock.withLock {
            var all = read()
            guard !all.contains(where: { isSame($0, item) }) else { return }
            all.append(item)
            write(all)
        }
    }

    func remove(_ items: some Sequence<Item>) {
        let gone = Set(items)
        lock.withLock { write(read().filter { !gone.contains($0) }) }
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
