import Foundation
import Hummingbird
import NIOCore

/// The address a request came from, for per-address limits: the TCP peer's, or — when the peer is a proxy
/// on this host or a private network (loopback, 10/8, 172.16/12, 192.168/16, fc00::/7), as in
/// docs/operations.md's nginx set-up — the last hop of its `X-Forwarded-For`, which that proxy appended.
/// A client on the internet can't choose it: its own `X-Forwarded-For` is read only through such a proxy.
enum ClientAddress {
    static func of(_ request: Request, peer: String?) -> String {
        if peer.map(isProxyNetwork) ?? true, let forwarded = request.headers[.xForwardedFor] {
            let hop = forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !hop.isEmpty, hop.utf8.count <= 64 { return hop }
        }
        return peer ?? "unknown"
    }

    static func isProxyNetwork(_ address: String) -> Bool {
        if address == "::1" || address.hasPrefix("127.") || address.hasPrefix("10.") || address.hasPrefix("192.168.") { return true }
        if address.lowercased().hasPrefix("fc") || address.lowercased().hasPrefix("fd") { return true }
        if address.hasPrefix("::ffff:") { return isProxyNetwork(String(address.dropFirst(7))) }
        let parts = address.split(separator: ".")
        if parts.count == 4, parts[0] == "172", let second = Int(parts[1]), (16...31).contains(second) { return true }
        return false
    }
}
