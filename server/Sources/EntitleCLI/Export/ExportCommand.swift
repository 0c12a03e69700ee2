import ArgumentParser
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Logging

/// `entitle export transactions`: every transaction after a cursor, in RevenueCat-compatible columns,
/// as CSV or JSON lines, to a file or standard output; the next export's cursor on standard error.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export the ledger for a data team.", subcommands: [Transactions.self])

    struct Transactions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every transaction after a cursor, in RevenueCat-compatible columns (docs/exports.md).",
            discussion: """
                Writes each transaction the ledger holds after --cursor (the beginning by default), in ledger order, a page at a time: \
                memory holds one page whatever the ledger's size. Prints `next cursor: N` on standard error: the next export's --cursor, \
                so a nightly job exports only what is new.
                """)

        @OptionGroup var options: AppLedgerOptions
        @Option(help: "Where the last export ended (its next cursor); the beginning when left out.") var cursor: String?
        @Option(help: "csv or jsonl.") var format: String = "csv"
        @Option(help: "The file to write (standard output when left out).", completion: .file()) var output: String?

        func run() async throws {
            let format: TransactionExportFormat
            let position: Int64
            do {
                format = try TransactionExportFormat(self.format)
                position = try TransactionExport.position(of: cursor)
            } catch {
                throw ValidationError(error.message)
            }
            let output = self.output
            let (count, head) = try await options.withApp(logger: Logger(label: "entitle.export")) { store, catalog in
                let export = TransactionExport(catalog: catalog, feed: store, identity: store)
                let head = try await export.head()
                let sink = try ExportSink(path: output)
                defer { sink.close() }
                try sink.write(format.header)
                let count = try await export.rows(after: position, through: head) { rows in try sink.write(try format.text(rows)) }
                return (count, max(head, position))
            }
            FileHandle.standardError.write(Data("exported \(count) transaction\(count == 1 ? "" : "s")\nnext cursor: \(head)\n".utf8))
        }
    }
}

/// Where an export writes: a file (created, or truncated) or standard output.
final class ExportSink: @unchecked Sendable {
    private let handle: FileHandle
    private let owned: Bool

    init(path: String?) throws {
        guard let path else {
            handle = .standardOutput
            owned = false
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let opened = FileHandle(forWritingAtPath: path) else {
            throw CommandFailure("cannot write \(path)")
        }
        handle = opened
        owned = true
    }

    func write(_ text: String) throws {
        guard !text.isEmpty else { return }
        try handle.write(contentsOf: Data(text.utf8))
    }

    func close() {
        if owned { try? handle.close() }
    }
}
