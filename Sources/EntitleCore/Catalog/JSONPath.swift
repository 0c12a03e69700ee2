import Foundation

/// A location in a JSON document, printed as `subscriptionGroups[0].subscriptions[1].displayPrice`.
/// Keys that aren't plain identifiers are quoted: `features["challenges.create"]`.
struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    private(set) var components: [Component] = []

    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    init(_ components: [Component] = []) {
        self.components = components
    }

    init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    func key(_ name: String) -> JSONPath { JSONPath(components + [.key(name)]) }
    func index(_ position: Int) -> JSONPath { JSONPath(components + [.index(position)]) }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let position):
                text += "[\(position)]"
            case .key(let name):
                let plain = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
                if plain {
                    text += text.isEmpty ? name : ".\(name)"
                } else {
                    let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    text += "[\"\(escaped)\"]"
                }
            }
        }
        return text
    }
}
