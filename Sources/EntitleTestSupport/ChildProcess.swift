import Foundation
import NIOConcurrencyHelpers

/// A program a test starts (`entitle serve`, `entitle demo`, the sample app), spawned and awaited so
/// that tests running side by side can't hold each other up:
///
/// - Spawns are one at a time, and every descriptor made for a child is close-on-exec in this
///   process. Foundation's `Process` on Linux closes the descriptors it finds open when it spawns;
///   one opened by another test a moment later went to that child too, so a pipe another test was
///   reading never reached its end while that child (a server, say) lived.
/// - Nothing waits on a thread of Swift's cooperative pool: the end of the process and of its
///   output are awaited, and output is read by threads of its own.
public final class ChildProcess: Sendable {
    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        case discarded
        /// Appended to this file, which must exist.
        case file(URL)
        /// Kept, and returned by ``output()`` once the child has ended.
        case captured
    }

    /// How a child ended.
    public struct Termination: Sendable, Equatable {
        public var status: Int32
        /// True when `status` is the signal that ended it.
        public var signalled: Bool

        public init(status: Int32, signalled: Bool) {
            self.status = status
            self.signalled = signalled
        }
    }

    private struct State {
        var termination: Termination?
        var waiters: [CheckedContinuation<Termination, Never>] = []
    }

    private static let spawning = NIOLock()

    private let process: Process
    private let state: NIOLockedValueBox<State>
    private let standardOutput: CapturedOutput?
    private let standardError: CapturedOutput?
    public let identifier: Int32

    /// Starts `executable` with `arguments` in `directory`, feeding it `input` (then end of file) on
    /// standard input, or nothing.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
        standardOutput: Output = .discarded, standardError: Output = .discarded
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let state = NIOLockedValueBox(State())
        self.state = state
        process.terminationHandler = { ended in
            let termination = Termination(status: ended.terminationStatus, signalled: ended.terminationReason == .uncaughtSignal)
            let waiters = state.withLockedValue { state in
                state.termination = termination
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: termination) }
        }
        let (out, error, stdin) = try Self.spawning.withLock { () throws -> (CapturedOutput?, CapturedOutput?, Pipe?) in
            var opened: [FileHandle] = []
            defer { for handle in opened { try? handle.close() } }
            func attach(_ output: Output) throws -> (Any, CapturedOutput?) {
                switch output {
                case .discarded:
                    return (FileHandle.nullDevice, nil)
                case .file(let url):
                    let handle = try FileHandle(forWritingTo: url)
                    handle.seekToEndOfFile()
                    Self.closeOnExec(handle.fileDescriptor)
                    opened.append(handle)
                    return (handle, nil)
                case .captured:
                    let pipe = Self.pipe()
                    return (pipe, CapturedOutput(pipe.fileHandleForReading))
                }
            }
            let (outTarget, out) = try attach(standardOutput)
            let (errorTarget, error) = try attach(standardError)
            process.standardOutput = outTarget
            process.standardError = errorTarget
            let stdin = input.map { _ in Self.pipe() }
            process.standardInput = stdin ?? FileHandle.nullDevice
            try process.run()
            return (out, error, stdin)
        }
        self.process = process
        self.identifier = process.processIdentifier
        self.standardOutput = out
        self.standardError = error
        out?.start()
        error?.start()
        if let stdin, let input {
            // Written by a thread of its own: a child that doesn't read it can't hold up the test.
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { state.withLockedValue { $0.termination == nil } }

    /// Sends `signal` (SIGTERM by default) to the child, if it still runs.
    public func signal(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(identifier, signal) }
    }

    /// Waits for the child to end.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            let ended = state.withLockedValue { state -> Termination? in
                if let termination = state.termination { return termination }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Waits at most `limit` for the child to end; nil if it still runs.
    public func exit(within limit: Duration) async -> Termination? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let termination = state.withLockedValue({ $0.termination }) { return termination }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return state.withLockedValue { $0.termination }
    }

    /// Sends `signal` and waits at most `limit` for the child to end; a child still running then is
    /// killed. Returns how it ended within the limit, or nil if it had to be killed.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) async -> Termination? {
        self.signal(signal)
        if let termination = await exit(within: limit) { return termination }
        self.signal(SIGKILL)
        _ = await exit()
        return nil
    }

    /// Waits for the child to end and for all of its captured output.
    public func output() async -> (termination: Termination, standardOutput: Data, standardError: Data) {
        let termination = await exit()
        let out = await standardOutput?.data() ?? Data()
        let error = await standardError?.data() ?? Data()
        return (termination, out, error)
    }

    private static func pipe() -> Pipe {
        let pipe = Pipe()
        closeOnExec(pipe.fileHandleForReading.fileDescriptor)
        closeOnExec(pipe.fileHandleForWriting.fileDescriptor)
        return pipe
    }

    /// The child gets its own copies as 0, 1 and 2, which don't carry the flag.
    private static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }

    /// A child's output, read to its end by a thread of its own.
    private final class CapturedOutput: Sendable {
        private struct State {
            var data = Data()
            var ended = false
            var waiters: [CheckedContinuation<Data, Never>] = []
        }

        private let handle: FileHandle
        private let state = NIOLockedValueBox(State())

        init(_ handle: FileHandle) {
            self.handle = handle
        }

        func start() {
            let (handle, state) = (handle, state)
            Thread.detachNewThread {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    state.withLockedValue { $0.data.append(chunk) }
                }
                try? handle.close()
                let (data, waiters) = state.withLockedValue { state in
                    state.ended = true
                    defer { state.waiters = [] }
                    return (state.data, state.waiters)
                }
                for waiter in waiters { waiter.resume(returning: data) }
            }
        }

        func data() async -> Data {
            await withCheckedContinuation { continuation in
                let ended = state.withLockedValue { state -> Data? in
                    if state.ended { return state.data }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ended { continuation.resume(returning: ended) }
            }
        }
    }
}
