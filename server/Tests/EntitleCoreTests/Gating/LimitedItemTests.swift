import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("LimitedItem")
struct LimitedItemTests {
    static let devices = (1...5).map { LimitedItem(id: "device-\($0)", addedAt: ReferenceTime.day(Double($0))) }

    @Test("the most recently added items are paused first", arguments: [
        (Allowance.limited(1), ["device-5", "device-4", "device-3", "device-2"]),
        (.limited(3), ["device-5", "device-4"]),
        (.limited(5), []),
        (.limited(0), ["device-5", "device-4", "device-3", "device-2", "device-1"]),
        (.unlimited, []),
    ])
    func paused(allowance: Allowance, expected: [String]) {
        #expect(LimitedItem.paused(Self.devices, allowance: allowance).map(\.id) == expected)
    }

    @Test("the answer doesn't depend on the order items are given in; ties break by id", arguments: 0..<10)
    func deterministic(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let tied = Self.devices + [LimitedItem(id: "device-4b", addedAt: ReferenceTime.day(4))]
        let expected = LimitedItem.paused(tied, allowance: .limited(2)).map(\.id)
        #expect(expected == ["device-5", "device-4b", "device-4", "device-3"])
        #expect(LimitedItem.paused(tied.shuffled(using: &generator), allowance: .limited(2)).map(\.id) == expected)
    }
}
