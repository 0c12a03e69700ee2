#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Frees the listening port the moment the process crashes. The Swift runtime's backtracer keeps a
/// crashed process alive while it writes the backtrace (seconds; minutes when it is interrupted), and
/// with it the listening socket, which keeps accepting connections nobody answers and stops a
/// supervisor's restart from binding. A handler installed after the runtime's closes every socket the
/// process holds (the listener, clients, database connections), then hands the signal on to the
/// runtime's handler, so the backtrace is still written.
///
/// Only async-signal-safe calls run in the handler: `getsockopt`, `close`, `sigaction`, `raise`.
enum CrashSocketRelease {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
    /// The actions installed before ours, by signal number: allocated once, never freed, read in the handler.
    nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    static func install() {
        for signal in signals {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            #if canImport(Glibc)
            action.__sigaction_handler.sa_sigaction = handle
            #else
            action.__sigaction_u.__sa_sigaction = handle
            #endif
            _ = sigaction(signal, &action, previous + Int(signal))
        }
    }

    private static let handle: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, context in
        // A socket is what answers SO_TYPE (async-signal-safe, as `fstat` is, and with no C struct
        // whose defining module a release build resolves differently).
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        for descriptor in 3..<Int32(4096) where getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 {
            close(descriptor)
            length = socklen_t(MemoryLayout<Int32>.size)
        }
        // The runtime's handler (or the default action) takes it from here.
        var before = CrashSocketRelease.previous[Int(signal)]
        _ = sigaction(signal, &before, nil)
        #if canImport(Glibc)
        let siginfoHandler = before.__sigaction_handler.sa_sigaction
        let plainHandler = before.__sigaction_handler.sa_handler
        #else
        let siginfoHandler = before.__sigaction_u.__sa_sigaction
        let plainHandler = before.__sigaction_u.__sa_handler
        #endif
        if before.sa_flags & SA_SIGINFO != 0, let siginfoHandler {
            siginfoHandler(signal, info, context)
        } else if let plainHandler, unsafeBitCast(plainHandler, to: Int.self) > 1 {
            plainHandler(signal)
        } else {
            raise(signal)
        }
    }
}
