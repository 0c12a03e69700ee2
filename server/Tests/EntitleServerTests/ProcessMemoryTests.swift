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
        // The heap is the process's, and tests beside this one allocate and free meanwhile (tens of
        // megabytes while this allocates, under the whole suite on two cores): 128 MiB, touched so it is
        // resident, in blocks small enough for malloc's arenas, is seen to raise the heap by at least
        // itself, and freed, to lower it by itself within a margin (freeing is quick, so little else
        // happens meanwhile); of a few tries, one does.
        let size = 128 << 20
        let freed = (size - (8 << 20))...(size + (12 << 20))
        func followed(_ sample: (up: Int, down: Int)) -> Bool { sample.up >= freed.lowerBound && freed.contains(sample.down) }
        var seen: [(up: Int, down: Int)] = []
        for _ in 0..<5 {
            let before = try #require(ProcessMemory.now())
            let blocks = (0..<(size / 4_096)).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4_096, alignment: 16) }
            for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 4_096) }
            let holding = try #require(ProcessMemory.now())
            for block in blocks { block.deallocate() }
            let after = try #require(ProcessMemory.now())
            seen.append((holding.heapInUseBytes - before.heapInUseBytes, holding.heapInUseBytes - after.heapInUseBytes))
            if let last = seen.last, followed(last) { break }
        }
        #expect(seen.contains { followed($0) }, "\(seen)")
        #else
        #expect(ProcessMemory.now() == nil)
        #endif
    }
}
