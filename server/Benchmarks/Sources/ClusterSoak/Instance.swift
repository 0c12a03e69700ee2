import Foundation
import Synchronization

/// One `entitle serve` process of the cluster, which the soak kills (SIGKILL) and starts again; each
/// start is a new process on the same port, writing to the same log.
final class Instance: Sendable {
    let name: String
    let port: Int
    let arguments: [String]
    let log: URL
    private let binaryPath: Mutex<String>
    private let process = Mutex<Process?>(nil)
    /// When (seconds into the soak) it was killed, and how long it took to be ready again (-1: never).
    private let restartLog = Mutex<[(at: Int, ready: Double)]>([])

    init(name: String, port: Int, binary: String, arguments: [String], log: URL) {
        self.name = name
        self.port = port
        self.binaryPath = Mutex(binary)
        self.arguments = arguments
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    }

    var base: String { "http://127.0.0.1:\(port)" }
    /// The binary the next start runs.
    var binary: String { binaryPath.withLock { $0 } }

    /// The next start runs `binary` (a rolling upgrade).
    func upgrade(to binary: String) { binaryPath.withLock { $0 = binary } }
    var pid: Int32? { process.withLock { $0.map(\.processIdentifier) } }
    var restarts: [(at: Int, ready: Double)] { restartLog.withLock { $0 } }

    func noteRestart(at: Int, ready: Double) { restartLog.withLock { $0.append((at, ready)) } }

    func start() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = ["serve", "--port", "\(port)"] + arguments
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        server.standardOutput = output
        server.standardError = output
        try server.run()
        process.withLock { $0 = server }
    }

    /// SIGKILL: no graceful shutdown, no lease released, requests in flight cut.
    func kill() {
        guard let server = process.withLock({ $0 }) else { return }
        Foundation.kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }

    /// SIGINT and wait: the graceful shutdown.
    func stop() -> Int32 {
        guard let server = process.withLock({ $0 }) else { return -1 }
        server.interrupt()
        server.waitUntilExit()
        return server.terminationStatus
    }

    /// VmRSS in kB, 0 when not running.
    func residentKB() -> Int {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
}
