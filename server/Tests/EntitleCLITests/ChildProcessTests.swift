import EntitleTestSupport
import Foundation
import NIOConcurrencyHelpers
import Testing

/// The programs tests start: started side by side, a short one's output still ends when it does.
@Suite("ChildProcess")
struct ChildProcessTests {
    static let sleep = URL(fileURLWithPath: "/bin/sleep")
    static let echo = URL(fileURLWithPath: "/bin/echo")

    @Test("started side by side with long-lived children, each short child's captured output ends when it ends: no other child holds its pipes")
    func outputEndsWithItsChild() async throws {
        let sleepers = NIOLockedValueBox<[ChildProcess]>([])
        let ended = NIOLockedValueBox<[Int: String]>([:])
        let readers = try await withThrowingTaskGroup(of: Task<Void, Never>?.self) { group in
            for n in 0..<60 {
                group.addTask {
                    if n.isMultiple(of: 2) {
                        let sleeper = try ChildProcess(Self.sleep, ["60"])
                        sleepers.withLockedValue { $0.append(sleeper) }
                        return nil
                    }
                    let child = try ChildProcess(Self.echo, ["child \(n)"], standardOutput: .captured)
                    return Task {
                        let (_, output, _) = await child.output()
                        ended.withLockedValue { $0[n] = String(decoding: output, as: UTF8.self) }
                    }
                }
            }
            return try await group.reduce(into: [Task<Void, Never>]()) { if let task = $1 { $0.append(task) } }
        }
        // Every echo has ended long before the sleepers do; its output must have reached its end.
        for _ in 0..<300 where ended.withLockedValue({ $0.count }) < readers.count {
            try await Task.sleep(for: .milliseconds(50))
        }
        let outputs = ended.withLockedValue { $0 }
        for sleeper in sleepers.withLockedValue({ $0 }) { sleeper.signal(SIGKILL) }
        for reader in readers { await reader.value }
        #expect(outputs.count == 30, "outputs still open while other children run: \(30 - outputs.count)")
        #expect(outputs.allSatisfy { $0.value == "child \($0.key)\n" })
    }

    @Test("exit, stop and output: a status, a signal, input to the end of file; the child holds descriptors 0 to 2 only, no signal blocked; one ignoring SIGTERM is killed")
    func lifecycle() async throws {
        let cat = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), [], input: Data("to the end\n".utf8), standardOutput: .captured)
        let (ended, output, _) = await cat.output()
        #expect(ended == .init(status: 0, signalled: false))
        #expect(String(decoding: output, as: UTF8.self) == "to the end\n")
        #expect(!cat.isRunning)

        let failing = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo refused >&2; exit 3"], standardError: .captured)
        let (status, _, error) = await failing.output()
        #expect(status == .init(status: 3, signalled: false))
        #expect(String(decoding: error, as: UTF8.self) == "refused\n")

        // Whatever the spawning thread blocks or this process ignores, the child starts with none blocked.
        let sleeper = try ChildProcess(Self.sleep, ["60"])
        #expect(sleeper.isRunning)
        #expect(await sleeper.exit(within: .milliseconds(100)) == nil)
        let signals = try Self.signals(sleeper)
        #expect(signals["SigBlk"] == 0, "\(signals)")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(sleeper.identifier)/fd").compactMap { Int($0) }.sorted()
        #expect(descriptors == [0, 1, 2])
        #expect(await sleeper.stop() == .init(status: SIGTERM, signalled: true))

        let stubborn = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' TERM; exec sleep 60"])
        let term = UInt64(1) << (SIGTERM - 1)
        for _ in 0..<250 where try Self.signals(stubborn)["SigIgn"].map({ $0 & term == 0 }) ?? true {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await stubborn.stop(within: .milliseconds(500)) == nil)
        #expect(!stubborn.isRunning)
    }

    /// The signal masks of `child`'s /proc/PID/status (SigBlk, SigIgn…).
    static func signals(_ child: ChildProcess) throws -> [String: UInt64] {
        let status = try String(contentsOfFile: "/proc/\(child.identifier)/status", encoding: .utf8)
        var masks: [String: UInt64] = [:]
        for line in status.split(separator: "\n") where line.hasPrefix("Sig") {
            let parts = line.split(separator: ":")
            if parts.count == 2, let mask = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) { masks[String(parts[0])] = mask }
        }
        return masks
    }

    @Test("signalWithChildren stops the processes the child started, then the child")
    func childrenSignalled() async throws {
        // A shell whose own child sleeps: SIGKILL to the shell alone would leave the sleep running.
        let shell = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "sleep 60 & echo started; wait"], standardOutput: .captured)
        var grandchildren: [pid_t] = []
        for _ in 0..<200 where grandchildren.isEmpty {
            try await Task.sleep(for: .milliseconds(25))
            grandchildren = ChildProcess.children(of: shell.identifier)
        }
        let sleeper = try #require(grandchildren.first)
        #expect(kill(sleeper, 0) == 0)
        shell.signalWithChildren(SIGKILL)
        // Killed, or ended on its own once its child was (whichever signal landed first).
        #expect(await shell.exit(within: .seconds(30)) != nil)
        // The sleep, now nobody's child, is reaped by init once killed: gone, or at most a zombie.
        var gone = false
        for _ in 0..<200 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8))?.split(separator: ")").last?
                .split(separator: " ").first
            gone = state == nil || state == "Z"
            if !gone { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(gone, "the shell's child still runs")
    }
}
