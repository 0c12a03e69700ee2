import Foundation

/// How much of a limit or quota a state allows: a count, or no limit at all.
public enum Allowance: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    case limited(Int)
    case unlimited

    /// Whether `amount` fits within this allowance.
    public func permits(_ amount: Int) -> Bool {
        switch self {
        case .limited(let maximum): amount <= maximum
        case .unlimited: true
        }
    }

    public var maximum: Int? {
        if case .limited(let maximum) = self { maximum } else { nil }
    }

    public var description: String {
        switch self {
        case .limited(let maximum): String(maximum)
        case .unlimited: "unlimited"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let count = try? container.decode(Int.self) {
            self = .limited(count)
        } else {
            let text = try container.decode(String.self)
            guard text == "unlimited" else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a count or \"unlimited\"")
            }
            self = .unlimited
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .limited(let maximum): try container.encode(maximum)
        case .unlimited: try container.encode("unlimited")
        }
    }
}
