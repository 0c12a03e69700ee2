/// An app version as numbers (`2.4.1`): compared component by component, missing ones as 0, so
/// `2.4` equals `2.4.0` and precedes `2.10`.
public struct AppVersion: Comparable, Hashable, Sendable {
    public let components: [Int]

    /// `nil` unless `text` is 1 to 4 dot-separated numbers of up to 6 digits each.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var components: [Int] = []
        for part in parts {
            guard (1...6).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return nil }
            components.append(value)
        }
        while components.count > 1, components.last == 0 { components.removeLast() }
        self.components = components
    }

    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}
