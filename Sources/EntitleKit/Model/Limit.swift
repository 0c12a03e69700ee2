/// How much of something a subscriber may have: a limit's or a quota's allowance.
public enum Limit: Hashable, Sendable, CustomStringConvertible {
    case unlimited
    /// At most this many (child devices paired, conversations a month).
    case maximum(Int)

    /// The API's allowance: a number, or `null` for unlimited.
    init(_ maximum: Int?) {
        self = maximum.map(Limit.maximum) ?? .unlimited
    }

    /// Whether `count` fits: always, when unlimited.
    public func allows(_ count: Int) -> Bool {
        switch self {
        case .unlimited: true
        case .maximum(let maximum): count <= maximum
        }
    }

    /// `unlimited`, or the number.
    public var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .maximum(let maximum): "\(maximum)"
        }
    }
}
