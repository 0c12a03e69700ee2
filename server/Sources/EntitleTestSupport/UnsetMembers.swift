/// The stored properties of `value` that are `nil` or empty, sorted: the JSON writer tests check that
/// their samples set every member of the types written, so a member added to a type later fails that
/// check until a sample sets it, and the comparisons with `JSONEncoder` then cover it.
public func unsetMembers(of value: Any) -> [String] {
    Mirror(reflecting: value).children.compactMap { child in
        let member = Mirror(reflecting: child.value)
        let empty = [.optional, .collection, .dictionary].contains(member.displayStyle) && member.children.isEmpty
        return empty ? child.label : nil
    }.sorted()
}
