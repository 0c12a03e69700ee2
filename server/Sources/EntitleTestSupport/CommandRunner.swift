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

    /// The `entitle-traced` binary of this build (`entitle` with the OTLP exporter).
    public static let entitleTraced: CommandRunner = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("entitle-traced")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return CommandRunner(executable: beside) }
        return CommandRunner(executable: Fixtures.root.appendingPathComponent(".build/debug/entitle-traced"))
    }()

    /// The `sample-app` binary of this build (EntitleKit's headless sample).
    public static let sampleApp: CommandRunner = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sample-app")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return CommandRunner(executable: beside) }
        return CommandRunner(executable: Fixtures.root.appendingPathComponent(".build/debug/sample-app"))
    }()

    /// Runs with `arguments` from `directory` (the package root by default), feeding `input` on
    /// standard input (/dev/null when nil), and waits for it to end (see ``ChildProcess``: no thread is
    /// held meanwhile).
    public func run(_ arguments: [String], input: Data? = nil, in directory: URL = Fixtures.root) async throws -> Result {
        let child = try ChildProcess(executable, arguments, in: directory, input: input, standardOutput: .captured, standardError: .captured)
        let (termination, output, error) = await child.output()
        return Result(
            status: termination.status, standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }

    /// Starts with `arguments` from `directory` and returns at once: a server, or a demo, that the
    /// test stops.
    public func start(_ arguments: [String], in directory: URL = Fixtures.root, standardOutput: ChildProcess.Output = .discarded,
                      standardError: ChildProcess.Output = .discarded, environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, in: directory, standardOutput: standardOutput, standardError: standardError, environment: environment)
    }
}
