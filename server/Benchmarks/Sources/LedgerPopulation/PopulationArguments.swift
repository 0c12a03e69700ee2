import Foundation

/// The options the population benchmarks share: `--sizes 10000,100000,1000000` (sorted; `_` allowed in
/// numbers), `--ledger PATH|postgres://…`, and the flags a benchmark names (no value).
public struct PopulationArguments: Sendable {
    public var sizes: [Int]
    public var ledger: String?
    public var flags: Set<String> = []

    /// Reads `arguments`; an unknown option, or one without its value, stops the run with a message.
    public init(defaultSizes: [Int], flags allowed: Set<String> = [], arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        sizes = defaultSizes
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if allowed.contains(flag) {
                flags.insert(flag)
                continue
            }
            guard let value = remaining.popFirst() else { fatalError("\(flag) needs a value") }
            switch flag {
            case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0.replacingOccurrences(of: "_", with: "")) }.sorted()
            case "--ledger": ledger = value
            default: fatalError("unknown option \(flag)")
            }
        }
    }
}
