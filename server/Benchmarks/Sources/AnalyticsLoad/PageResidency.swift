#if canImport(Glibc)
import Glibc
#endif

/// How much of a file the kernel holds in memory: `mincore` over a read-only mapping of it, the
/// mapping's pages never touched. A refresh reads the touched subscribers' pages at random, so
/// whether they come from memory or the disk changes its time more than anything it computes.
enum PageResidency {
    /// The fraction of `path`'s pages in the page cache; `nil` when it can't be told.
    static func fraction(of path: String) -> Double? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, size) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
        guard mincore(mapping, size, &resident) == 0 else { return nil }
        return Double(resident.reduce(0) { $0 + Int($1 & 1) }) / Double(resident.count)
    }
}
