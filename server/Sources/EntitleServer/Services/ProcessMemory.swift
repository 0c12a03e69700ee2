#if canImport(Glibc)
import CMalloc
import Glibc
#endif
import Foundation

/// What the server's memory holds now: resident pages, and of the allocator's memory what is in use
/// and what it keeps free for reuse. Resident memory above the heap in use is the allocator's (freed
/// pages not yet given back, ``MemoryTrimmer``) and the program's code and stacks; a heap in use that
/// stays level while resident memory moves is not a leak.
public struct ProcessMemory: Sendable, Equatable {
    /// Pages of the process in RAM (`/proc/self/statm`), in bytes.
    public var residentBytes: Int
    /// Bytes of live allocations: in the allocator's arenas and mapped on their own (glibc's
    /// `mallinfo2`: `uordblks + hblkhd`).
    public var heapInUseBytes: Int
    /// Bytes the allocator holds free in its arenas (`fordblks`), resident or not.
    public var heapFreeBytes: Int

    public init(residentBytes: Int, heapInUseBytes: Int, heapFreeBytes: Int) {
        self.residentBytes = residentBytes
        self.heapInUseBytes = heapInUseBytes
        self.heapFreeBytes = heapFreeBytes
    }

    /// This process's memory now; `nil` where glibc and `/proc` aren't (macOS).
    ///
    /// `mallinfo2` walks every arena's free lists under its lock: a scrape's cost, not a request's.
    public static func now() -> ProcessMemory? {
        #if canImport(Glibc) && os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let (resident, overflow) = pages.multipliedReportingOverflow(by: max(pageSize, 1))
        guard !overflow else { return nil }
        let info = entitle_mallinfo2()
        return ProcessMemory(
            residentBytes: resident, heapInUseBytes: Int(clamping: info.uordblks) &+ Int(clamping: info.hblkhd),
            heapFreeBytes: Int(clamping: info.fordblks))
        #else
        return nil
        #endif
    }
}
