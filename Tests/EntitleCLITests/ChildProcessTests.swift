import EntitleTestSupport
import Foundation
import NIOConcurrencyHelpers
import Testing

/// The programs tests start: started side by side, a short one's output still ends when it does.
@Suite("ChildProcess")
struct ChildProcessTests {
    static let sleep = URL(fileURLWithPath: "/bin/sleep")
    static let echo = URL(fileURLWithPath: "/bin/echo")

    @Test("started beside long-lived children, each short child's captured output ends when it ends: no other child holds its pipes")
    func outputEndsWithItsChild() async throws {
        // Many open descriptors make the spawn that lists them slow, the moment in which another
        // test's new pipe could reach a child (without the spawn lock and close-on-exec, 1 to 5 of
        // these 100 outputs stayed open here). A quarter of the process's limit at most.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let held = (0..<min(3_000, Int(limit.rlim_cur) / 4)).compactMap { _ in FileHandle(forReadingAtPath: "/dev/null") }
        defer { for handle in held { try? handle.close() } }
        let sleepers = NIOLockedValueBox<[ChildProcess]>([])
        let ended = NIOLockedValueBox<[Int: String]>([:])
        let readers = try await withThrowingTaskGroup(of: Task<Void, Never>?.self) { group in
            for n in 0..<200 {
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
        #expect(outputs.count == 100, "outputs still open while other children run: \(100 - outputs.count)")
        #expect(outputs.allSatisfy { $0.value == "child \($0.key)\n" })
    }

    @Test("exit, stop and output: a status, a signal, input to the end of file, a child that ignores SIGTERM is killed")
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

        // A child starts with the signals blocked in the thread that spawned it (a pool thread blocks
        // them); these unblock SIGTERM, as `entitle` handles it.
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        func script(_ onTerm: String) -> [String] {
            ["-c", "import signal, sys, time; signal.signal(signal.SIGTERM, \(onTerm)); signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM}); time.sleep(60)"]
        }
        let graceful = try ChildProcess(python, script("lambda *_: sys.exit(0)"))
        #expect(graceful.isRunning)
        #expect(await graceful.exit(within: .milliseconds(100)) == nil)
        #expect(await graceful.stop() == .init(status: 0, signalled: false))

        let stubborn = try ChildProcess(python, script("signal.SIG_IGN"))
        #expect(await stubborn.stop(within: .milliseconds(500)) == nil)
        #expect(!stubborn.isRunning)
    }
}
