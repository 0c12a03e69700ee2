import Foundation

/// Runs the built `entitle` executable as a user would, capturing its output and exit status.
public struct CommandRunner: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    public let executable: URL

    public init(executable: URL) {
        self.executable = executable
    }

    /// The `entitle` binary of this build: next to the test bundle, else in `.build/debug`.
    public static let entitle: CommandRunner = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("entitle")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return CommandRunner(executable: beside) }
        return CommandRunner(executable: Fixtures.root.appendingPathComponent(".build/debug/entitle"))
    }()

    /// The `sample-app` binary of this build (EntitleKit's headless sample).
    public static let sampleApp: CommandRunner = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sample-app")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return CommandRunner(executable: beside) }
        return CommandRunner(executable: Fixtures.root.appendingPathComponent(".build/debug/sample-app"))
    }()

    /// Runs with `arguments` from `directory` (the package root by default), feeding `input` on
    /// standard input.
    public func run(_ arguments: [String], input: Data? = nil, in directory: URL = Fixtures.root) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Drain standard error on another thread while reading standard output, so neither pipe fills.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = (try? error.fileHandleForReading.readToEnd()) ?? Data()
            group.leave()
        }
        let outData = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errorBox.data, as: UTF8.self))
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
