import ArgumentParser
import EntitleAnalytics
import Foundation

/// `--exchange-rates FILE`, for the commands that serve reports (`serve`, `demo`).
struct ExchangeRatesOption: ParsableArguments {
    @Option(
        name: .customLong("exchange-rates"),
        help: "A JSON file of exchange rates into one reporting currency, dated (docs/analytics.md): reports add their amounts in it.",
        completion: .file())
    var path: String?

    /// A bad file stops the command before it starts (a demo before its simulation).
    func validate() throws {
        _ = try load()
    }

    /// The rates the file holds, or a validation error naming what is wrong with it.
    func load() throws -> ExchangeRates? {
        guard let path else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--exchange-rates \(path): the file can't be read")
        }
        do {
            return try ExchangeRates(json: data)
        } catch {
            throw ValidationError("--exchange-rates \(path): \(error) (\(ExchangeRates.Invalid.code))")
        }
    }
}
