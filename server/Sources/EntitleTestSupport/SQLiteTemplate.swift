import EntitleStorage
import Foundation

/// A new SQLite ledger migrated once for the process: each test's ledger starts as a copy of its bytes
/// (what migrating an empty file writes) instead of running every migration again. Tests of the
/// migrations themselves open files of their own.
enum SQLiteTemplate {
    private static let bytes = Task<Data, any Error> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-template-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("entitle.sqlite")
        let store = try await SQLiteLedgerStore.open(path: file.path)
        // Closing the last connection checkpoints the write-ahead log into the file and removes it.
        await store.close()
        guard !FileManager.default.fileExists(atPath: file.path + "-wal") else { throw TemplateNotCheckpointed() }
        return try Data(contentsOf: file)
    }

    /// Thrown when the migrated ledger's log was left beside it: the file alone would miss its last writes.
    struct TemplateNotCheckpointed: Error {}

    /// Writes a migrated, empty ledger to `file`, creating its folder.
    static func copy(to file: URL) async throws {
        let data = try await bytes.value
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}
