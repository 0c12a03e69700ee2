import EntitleCore
import Testing

@testable import EntitleStorage

/// A dictionary bounded first in, first out.
@Suite("BoundedDictionary")
struct BoundedDictionaryTests {
    @Test("past its capacity the entry first kept longest ago makes room; setting a kept key again changes its value, not its turn")
    func firstInFirstOut() {
        var dictionary = BoundedDictionary<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { dictionary.set(index, for: key) }
        dictionary.set(10, for: "a")
        #expect(dictionary.count == 3)
        #expect(dictionary["a"] == 10)
        dictionary.set(3, for: "d")
        #expect(dictionary["a"] == nil)
        #expect(dictionary["b"] == 1 && dictionary["c"] == 2 && dictionary["d"] == 3)
        dictionary.set(4, for: "e")
        dictionary.set(5, for: "a")
        #expect(dictionary.count == 3)
        #expect(dictionary["b"] == nil && dictionary["c"] == nil)
        #expect(dictionary["d"] == 3 && dictionary["e"] == 4 && dictionary["a"] == 5)
    }

    @Test("any sequence of sets keeps what a first-in-first-out list of the same capacity keeps", arguments: 0..<6)
    func model(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let capacity = Int.random(in: 1...8, using: &generator)
        var dictionary = BoundedDictionary<Int, Int>(capacity: capacity)
        var reference: [(key: Int, value: Int)] = []
        for step in 0..<2_000 {
            let key = Int.random(in: 0..<20, using: &generator)
            dictionary.set(step, for: key)
            if let index = reference.firstIndex(where: { $0.key == key }) {
                reference[index].value = step
            } else {
                reference.append((key, step))
                if reference.count > capacity { reference.removeFirst() }
            }
            #expect(dictionary.count == reference.count)
            for key in 0..<20 { #expect(dictionary[key] == reference.first { $0.key == key }?.value) }
        }
    }

    @Test("a capacity below one keeps one entry")
    func smallest() {
        var dictionary = BoundedDictionary<String, Int>(capacity: 0)
        dictionary.set(1, for: "a")
        dictionary.set(2, for: "b")
        #expect(dictionary.count == 1)
        #expect(dictionary["b"] == 2)
    }
}
