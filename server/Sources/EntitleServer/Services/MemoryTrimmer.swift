#if canImport(Glibc)
import CMalloc
import Glibc
#endif
import ServiceLifecycle

/// Gives memory the server freed back to the system every `interval`, until graceful shutdown.
///
/// glibc's allocator keeps freed memory in per-thread arenas for reuse; a server whose bursts (an
/// analytics refresh decoding a batch of histories, a busy second of requests) land on different
/// threads keeps the sum of its bursts resident. Trimming returns the free pages of every arena
/// (`malloc_trim`), so resident memory follows what is in use. Elsewhere it does nothing.
public struct MemoryTrimmer: Service {
    let interval: Duration
    /// The clock the trimmer sleeps on.
    let clock: any Clock<Duration>

    public init(interval: Duration = .seconds(10), clock: any Clock<Duration> = ContinuousClock()) {
        self.interval = interval
        self.clock = clock
    }

    public func run() async throws {
        await everyInterval(interval, clock: clock) { Self.trim() }
    }

    /// Returns free memory to the system now; `true` when some was.
    @discardableResult
    public static func trim() -> Bool {
        #if canImport(Glibc) && os(Linux)
        malloc_trim(0) == 1
        #else
        false
        #endif
    }
}
