import EntitleCore
import EntitleStorage
import Foundation
import LedgerPopulation
import Logging

/// `entitle export transactions` as the ledger grows: the population (``SignedPopulation``, three apps)
/// loaded to each size in turn, then every app's whole export (CSV, to a file) timed, with the process's
/// peak resident memory (GNU time's maximum RSS); each figure beside the smallest size's, same run.
///
///     swift build -c release --product entitle
///     swift run --package-path Benchmarks -c release ExportLoad [--sizes 10000,1000000] [--ledger PATH]
///
/// LEDGER: a SQLite file (by default one in a temporary folder, removed at the end); loading is
/// idempotent, so a ledger kept from an interrupted run is reused. `ENTITLE_BINARY` names the binary
/// (default `.build/release/entitle`). Each line is printed as it is measured.
@main
enum ExportLoad {
    static func main() async throws {
        let arguments = PopulationArguments(defaultSizes: [10_000, 1_000_000])
        let (sizes, ledger) = (arguments.sizes, arguments.ledger)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ledger ?? folder.appendingPathComponent("entitle.sqlite").path
        let database = try LedgerDatabase(url: "sqlite:\(path)")
        let binary = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] ?? root.appendingPathComponent(".build/release/entitle").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            say("no binary at \(binary): run `swift build -c release --product entitle` first, or set ENTITLE_BINARY")
            exit(2)
        }
        var logger = Logger(label: "entitle.export-load")
        logger.logLevel = .error
        let population = try SignedPopulation(seed: 42)
        let catalogs = try SignedPopulation.catalogs(from: root, into: folder.appendingPathComponent("catalogs"))
        say("export of \(path) at \(sizes.map(String.init).joined(separator: ", ")) subscribers (three apps)")

        var loaded = 0
        var reference: (rowsPerSecond: Double, rss: Double)?
        for size in sizes {
            let range = loaded..<size
            let load = try await LedgerConnection.with(database, logger: logger) { store in
                try await PopulationLoader.load(population, subscribers: range, into: store)
            }
            loaded = size
            say(String(format: "\n== %d subscribers: loaded %d events in %.1f s", size, load.events, load.seconds))
            var rows = 0
            var seconds = 0.0
            var rss = 0.0
            for (app, catalog) in zip(SignedPopulation.apps, catalogs) {
                let output = folder.appendingPathComponent("\(app.bundleID).csv").path
                let run = try timed(binary, [
                    "export", "transactions", "--database", "sqlite:\(path)", "--catalog", catalog.path, "--app", app.bundleID, "--output", output,
                ])
                let exported = Int(run.standardError.split(separator: "\n").first { $0.hasPrefix("exported ") }?.split(separator: " ")[1] ?? "0") ?? 0
                let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
                say(String(format: "  %@: %d rows, %.1f MB, %.1f s, peak RSS %.0f MB", app.bundleID, exported, Double(bytes) / 1e6, run.seconds, run.rssMB))
                try? FileManager.default.removeItem(atPath: output)
                rows += exported
                seconds += run.seconds
                rss = max(rss, run.rssMB)
            }
            let rate = Double(rows) / max(seconds, 0.001)
            let base = reference ?? (rate, rss)
            reference = base
            say(String(format: "  all apps: %d rows in %.1f s (%.0f rows/s, %.2fx the first size's); peak RSS %.0f MB (%.2fx)",
                       rows, seconds, rate, rate / base.rowsPerSecond, rss, rss / base.rss))
        }
    }

    /// Runs `binary arguments` under GNU time: wall-clock seconds, peak RSS, standard error. A non-zero exit stops the run.
    static func timed(_ binary: String, _ arguments: [String]) throws -> (seconds: Double, rssMB: Double, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "TIME %e %M", binary] + arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fatalError("entitle exited \(process.terminationStatus): \(output)") }
        let figures = output.split(separator: "\n").last { $0.hasPrefix("TIME ") }?.split(separator: " ") ?? []
        let seconds = figures.count == 3 ? Double(figures[1]) ?? 0 : 0
        let rss = figures.count == 3 ? (Double(figures[2]) ?? 0) / 1024 : 0
        return (seconds, rss, output)
    }
}
