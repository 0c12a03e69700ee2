import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The methods each route template answers, taken from the router once every route is added, so an
/// undeclared method on a known path is answered 405 with `Allow`, not 404.
final class RouteMethods: Sendable {
    private let table = NIOLockedValueBox<[(segments: [String], methods: [HTTPRequest.Method])]>([])

    /// Records the router's routes (call once, after the last route is added).
    func record(_ routes: [Router<EntitleRequestContext>.RouteDescription]) {
        var byPath: [String: [HTTPRequest.Method]] = [:]
        for route in routes { byPath["\(route.path)", default: []].append(route.method) }
        table.withLockedValue { table in
            table = byPath.map { (Self.segments("\($0.key)"), $0.value.sorted { $0.rawValue < $1.rawValue }) }
        }
    }

    /// The methods a path answers, when some route matches it.
    func methods(forPath path: String) -> [HTTPRequest.Method]? {
        let segments = Self.segments(path)
        return table.withLockedValue { table in
            table.first { entry in
                entry.segments.count == segments.count
                    && zip(entry.segments, segments).allSatisfy { template, segment in
                        template == segment || template.hasPrefix("{") || template.hasPrefix(":") || template == "*"
                    }
            }?.methods
        }
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? []
    }
}
