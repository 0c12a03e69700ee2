import Foundation
import LedgerPopulation

/// Running the `entitle` binary, timed.
enum Run {
    /// Runs `binary arguments` to its end; its wall-clock seconds. A non-zero exit fails the run.
    static func time(_ binary: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let clock = ContinuousClock()
        let started = clock.now
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let took = seconds(clock.now - started)
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        say("  entitle \(arguments.first ?? ""): " + text.replacingOccurrences(of: "\n", with: "\n    "))
        guard process.terminationStatus == 0 else { throw Client.Failure(message: "entitle \(arguments.first ?? "") exited \(process.terminationStatus)") }
        return took
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
