import ArgumentParser
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// What several commands read the same way: a catalog folder, a database URL, an existing ledger.
enum CommandInputs {
    /// The catalog in `folder`, or every problem it has, one per line. A folder that doesn't exist is
    /// a usage error (exit 64); a catalog with problems is a failure (exit 1).
    static func catalog(_ folder: URL) throws -> Catalog {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("no catalog folder at \(folder.path)")
        }
        do {
            return try CatalogLoader().load(directory: folder)
        } catch {
            throw CommandFailure("the catalog \(folder.path) has problems:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
    }

    /// The catalog at `path`; the empty catalog when none is named.
    static func catalog(path: String?) throws -> Catalog {
        guard let path else { return .empty }
        return try catalog(URL(fileURLWithPath: path, isDirectory: true))
    }

    /// A database URL: `sqlite:PATH` or `postgres://…`.
    static func database(_ url: String) throws -> LedgerDatabase {
        do {
            return try LedgerDatabase(url: url)
        } catch {
            throw ValidationError("--database: \(error.message)")
        }
    }

    /// Runs `body` on the existing ledger at `url` (an SQLite file must exist: these commands read a
    /// ledger, they never create one).
    static func withExistingLedger<T: Sendable>(
        _ url: String, logger: Logger, _ body: @escaping @Sendable (any LedgerStore) async throws -> T
    ) async throws -> T {
        let database = try database(url)
        if case .sqlite(let path) = database, !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no ledger at \(path)")
        }
        return try await LedgerConnection.with(database, logger: logger, body)
    }
}
