import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("RegisteredItem: a registry that is the same in any order")
struct RegisteredItemTests {
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }
    static func change(_ action: ItemChange.Action, _ day: Double, name: String? = nil) -> ItemChange {
        ItemChange(limit: "childDevices", itemID: "ipad-1", action: action, name: name, at: Self.day(day))
    }

    /// Histories of one device with what they leave: registered or not, since when, under which name.
    static let histories: [(changes: [ItemChange], registered: Bool, addedAt: Date?, name: String?)] = [
        ([change(.register, 1, name: "iPad")], true, day(1), "iPad"),
        ([change(.register, 1, name: "iPad"), change(.rename, 2, name: "Mia's iPad")], true, day(1), "Mia's iPad"),
        ([change(.register, 1), change(.remove, 2)], false, nil, nil),
        ([change(.register, 1, name: "iPad"), change(.remove, 2), change(.register, 3)], true, day(3), "iPad"),
        // Registered again after a removal that arrives last: it counts from the registration after it.
        ([change(.register, 1), change(.register, 4), change(.remove, 2)], true, day(4), nil),
        // Registered twice without a removal between: it counts from the first.
        ([change(.register, 1), change(.register, 2)], true, day(1), nil),
        // A removal at the instant of a registration wins.
        ([change(.register, 2), change(.remove, 2)], false, nil, nil),
    ]

    @Test("every order of the same changes, and the changes applied twice, leave the same record", arguments: histories.indices)
    func orderIndependent(index: Int) {
        let (changes, registered, addedAt, name) = Self.histories[index]
        var records: [RegisteredItem] = []
        for order in permutations(changes) {
            var item = RegisteredItem(limit: "childDevices", id: "ipad-1")
            for change in order + order { item.apply(change) }
            records.append(item)
        }
        #expect(Set(records).count == 1)
        #expect(records[0].isRegistered == registered && records[0].addedAt == addedAt && records[0].name == name)
    }

    @Test("a log-in merges two records of one device as if every change had been applied to one")
    func merge() {
        var phone = RegisteredItem(limit: "childDevices", id: "ipad-1")
        phone.apply(Self.change(.register, 1, name: "iPad"))
        var account = RegisteredItem(limit: "childDevices", id: "ipad-1")
        account.apply(Self.change(.remove, 2))
        account.apply(Self.change(.register, 3))
        var merged = account
        merged.merge(phone)
        var direct = RegisteredItem(limit: "childDevices", id: "ipad-1")
        for change in [Self.change(.register, 1, name: "iPad"), Self.change(.remove, 2), Self.change(.register, 3)] { direct.apply(change) }
        #expect(merged == direct && merged.addedAt == Self.day(3) && merged.name == "iPad")
    }

    @Test("under a lower allowance the newest items pause, whatever order they were registered in; an unlimited one pauses none", arguments: [
        (Allowance.limited(1), ["ipad-2", "ipad-3"]), (.limited(2), ["ipad-3"]), (.limited(3), []), (.unlimited, []), (.limited(0), ["ipad-1", "ipad-2", "ipad-3"]),
    ])
    func paused(allowance: Allowance, paused: [String]) {
        var registry: [String: [String: RegisteredItem]] = [:]
        for (id, day) in [("ipad-3", 3.0), ("ipad-1", 1), ("ipad-2", 2)] {
            var item = RegisteredItem(limit: "childDevices", id: id)
            item.apply(ItemChange(limit: "childDevices", itemID: id, action: .register, at: Self.day(day)))
            registry["childDevices", default: [:]][id] = item
        }
        let statuses = ItemStatus.statuses(of: registry) { _ in allowance }
        #expect(statuses.map(\.id) == ["ipad-1", "ipad-2", "ipad-3"], "oldest first")
        #expect(statuses.filter(\.isPaused).map(\.id) == paused)
    }

    @Test("item IDs and names the registry refuses", arguments: ["", " ", "a b", "a/b", "tab\t", String(repeating: "x", count: 129)])
    func invalidIDs(id: String) {
        #expect(ItemChange.problem(itemID: id) != nil)
    }

    private func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index -> [[T]] in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
