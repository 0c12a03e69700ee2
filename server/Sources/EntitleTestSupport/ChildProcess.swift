import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts (`entitle serve`, `entitle demo`, the sample app), spawned and awaited so
/// that tests running side by side can't hold each other up:
///
/// - The child gets standard input, output and error, and no other descriptor of this process
///   (`posix_spawn` closing every descriptor from 3 on in the child). Foundation's `Process` on
///   Linux lists `/proc/self/fd` and closes what it found: a pipe another test opened a moment later
///   went to that child too, and was then held open for as long as the child lived; and past about
///   1,360 open descriptors its listing read beyond its buffer (a crash).
/// - The child starts with no blocked signal and default SIGTERM, SIGINT, SIGPIPE… whatever thread
///   spawned it.
/// - Nothing waits on a thread of Swift's cooperative pool: the end of the process and of its
///   output are awaited, while threads of their own wait for them.
public final class ChildProcess: Sendable {
    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        case discarded
        /// Appended to this file (created when missing).
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

    /// The child could not be started.
    public struct SpawnFailure: Error, CustomStringConvertible {
        public var executable: String
        public var step: String
        public var code: Int32

        public var description: String { "cannot start \(executable): \(step) failed (\(String(cString: strerror(code))))" }
    }

    private let termination = Once<Termination>()
    private let standardOutput: Once<Data>?
    private let standardError: Once<Data>?
    public let identifier: pid_t

    /// Starts `executable` with `arguments` in `directory`, feeding it `input` (then end of file) on
    /// standard input, or nothing; its environment is this process's with `environment` added.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
        standardOutput: Output = .discarded, standardError: Output = .discarded, environment: [String: String] = [:]
    ) throws {
        let path = executable.path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends, closed here once it has its copies; this process's ends, closed on failure.
        var childEnds: [Int32] = []
        var ownEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        func failure(_ step: String, _ code: Int32) -> SpawnFailure {
            for descriptor in ownEnds { close(descriptor) }
            ownEnds = []
            return SpawnFailure(executable: path, step: step, code: code)
        }
        func check(_ step: String, _ code: Int32) throws {
            guard code == 0 else { throw failure(step, code) }
        }
        func pipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            try check("pipe", Glibc.pipe(&ends) == 0 ? 0 : errno)
            // Above standard input, output and error even when one of them is closed here; and
            // close-on-exec, for any program started otherwise.
            let kept = ends.map { end -> Int32 in
                let moved = fcntl(end, F_DUPFD_CLOEXEC, 3)
                close(end)
                return moved
            }
            guard kept.allSatisfy({ $0 >= 3 }) else {
                for end in kept where end >= 0 { close(end) }
                throw failure("pipe", EMFILE)
            }
            return (kept[0], kept[1])
        }

        var inputWriter: Int32?
        if input != nil {
            let (read, write) = try pipe()
            childEnds.append(read)
            ownEnds.append(write)
            inputWriter = write
            try check("dup2", posix_spawn_file_actions_adddup2(&actions, read, 0))
        } else {
            try check("open", posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        }
        func attach(_ output: Output, to target: Int32) throws -> Int32? {
            switch output {
            case .discarded:
                try check("open", posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0))
                return nil
            case .file(let url):
                try check("open", posix_spawn_file_actions_addopen(&actions, target, url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644))
                return nil
            case .captured:
                let (read, write) = try pipe()
                childEnds.append(write)
                ownEnds.append(read)
                try check("dup2", posix_spawn_file_actions_adddup2(&actions, write, target))
                return read
            }
        }
        let outputReader = try attach(standardOutput, to: 1)
        let errorReader = try attach(standardError, to: 2)
        if let directory {
            guard let addChdir = Self.addChdir else { throw failure("posix_spawn_file_actions_addchdir_np", ENOSYS) }
            try check("chdir", directory.path.withCString { addChdir(&actions, $0) })
        }
        guard let addCloseFrom = Self.addCloseFrom else { throw failure("posix_spawn_file_actions_addclosefrom_np", ENOSYS) }
        try check("closefrom", addCloseFrom(&actions, 3))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, signal) }
        try check("signal mask", posix_spawnattr_setsigmask(&attributes, &none))
        try check("signal defaults", posix_spawnattr_setsigdefault(&attributes, &defaults))
        try check("flags", posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        if environment.isEmpty {
            try check("posix_spawn", posix_spawn(&pid, path, &actions, &attributes, argv, environ))
        } else {
            let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for variable in envp { free(variable) } }
            try check("posix_spawn", posix_spawn(&pid, path, &actions, &attributes, argv, envp))
        }

        let child = pid
        self.identifier = child
        self.standardOutput = outputReader.map(Self.read)
        self.standardError = errorReader.map(Self.read)
        let termination = termination
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7f
            termination.set(signal == 0 ? Termination(status: (status >> 8) & 0xff, signalled: false) : Termination(status: signal, signalled: true))
        }
        if let inputWriter, let input {
            Thread.detachNewThread {
                // A child that closes its input early makes the write fail (EPIPE) on this thread alone.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(inputWriter, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        if written <= 0 { break }
                        offset += written
                    }
                }
                close(inputWriter)
            }
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { termination.value == nil }

    /// Sends `signal` (SIGTERM by default) to the child, if it still runs.
    public func signal(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(identifier, signal) }
    }

    /// Sends `signal` to the processes the child started (their parent is the child: read from
    /// `/proc`), then to the child. A crashed Swift program's backtracer is such a process, and outlives
    /// a child stopped with SIGKILL unless stopped first.
    public func signalWithChildren(_ signal: Int32) {
        guard isRunning else { return }
        for pid in Self.children(of: identifier) { kill(pid, signal) }
        kill(identifier, signal)
    }

    /// The processes whose parent is `parent`, from each `/proc/PID/stat` (its fourth field).
    public static func children(of parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                // The command's name is in parentheses and may hold spaces: the fields after the last ")".
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// Waits for the child to end.
    public func exit() async -> Termination {
        await termination.wait()
    }

    /// Waits at most `limit` for the child to end; nil if it still runs.
    public func exit(within limit: Duration) async -> Termination? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let ended = termination.value { return ended }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return termination.value
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
        let out = await standardOutput?.wait() ?? Data()
        let error = await standardError?.wait() ?? Data()
        return (termination, out, error)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc 2.34's and 2.29's additions, which Swift's Glibc module doesn't declare.
    private static let addCloseFrom: AddCloseFrom? =
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
    private static let addChdir: AddChdir? =
        dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }

    /// A child's output, read to its end by a thread of its own.
    private static func read(_ descriptor: Int32) -> Once<Data> {
        let output = Once<Data>()
        Thread.detachNewThread {
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            close(descriptor)
            output.set(data)
        }
        return output
    }

    /// A value given once, from any thread, and awaited by any number of tasks.
    private final class Once<Value: Sendable>: Sendable {
        private let state = NIOLockedValueBox<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

        var value: Value? { state.withLockedValue { $0.value } }

        func set(_ value: Value) {
            let waiters = state.withLockedValue { state in
                state.value = value
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: value) }
        }

        func wait() async -> Value {
            await withCheckedContinuation { continuation in
                let given = state.withLockedValue { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let given { continuation.resume(returning: given) }
            }
        }
    }
}
