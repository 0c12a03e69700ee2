import EntitleServer
import Testing

@Suite("ProcessMemory")
struct ProcessMemoryTests {
    @Test("the heap in use follows live allocations: up by what was allocated, down once it is freed; resident memory is counted")
    func followsAllocations() throws {
        #if canImport(Glibc) && os(Linux)
        let first = try #require(ProcessMemory.now())
        #expect(first.residentBytes > 1 << 20)
        #expect(first.heapInUseBytes > 0)
        // The heap is the process's, and tests beside this one allocate and free: of a few tries, one
        // sees 16 MB come and go (blocks small enough for the arenas, touched so they are resident).
        var seen: [(up: Int, down: Int)] = []
        for _ in 0..<10 {
            let before = try #require(ProcessMemory.now())
            let blocks = (0..<16_384).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 1_024, alignment: 16) }
            for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 1_024) }
            let holding = try #require(ProcessMemory.now())
            for block in blocks { block.deallocate() }
            let after = try #require(ProcessMemory.now())
            seen.append((holding.heapInUseBytes - before.heapInUseBytes, holding.heapInUseBytes - after.heapInUseBytes))
            if let last = seen.last, (15 << 20...18 << 20).contains(last.up), (15 << 20...18 << 20).contains(last.down) { break }
        }
        #expect(seen.contains { (15 << 20...18 << 20).contains($0.up) && (15 << 20...18 << 20).contains($0.down) }, "\(seen)")
        #else
        #expect(ProcessMemory.now() == nil)
        #endif
    }
}
