import EntitleServer
import Testing

@Suite("MemoryTrimmer")
struct MemoryTrimmerTests {
    @Test("memory freed behind a block still in use goes back to the system when trimmed, not before")
    func trims() {
        #if canImport(Glibc)
        MemoryTrimmer.trim()
        // Small blocks come from the allocator's heap, not from mmap: freeing them (but the last)
        // leaves their pages with the allocator.
        let blocks = (0..<20_000).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16) }
        for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 512) }
        for block in blocks.dropLast() { block.deallocate() }
        #expect(MemoryTrimmer.trim(), "about 10 MB were free")
        blocks.last?.deallocate()
        #endif
    }
}
