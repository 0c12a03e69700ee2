import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EntitleServer

/// Which address a request is counted under: the peer's, or through a proxy on this host or a private
/// network, the last hop it appended to `X-Forwarded-For`.
@Suite("ClientAddress")
struct ClientAddressTests {
    static func request(forwardedFor: String?) -> Request {
        var fields = HTTPFields()
        if let forwardedFor { fields[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        return Request(head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/dashboard/login", headerFields: fields), body: .init(buffer: .init()))
    }

    @Test("a proxy's last hop is the client; a client on the internet can't pick its own", arguments: [
        ("127.0.0.1", "203.0.113.9, 198.51.100.4", "198.51.100.4"), ("::1", "198.51.100.4", "198.51.100.4"), ("10.1.2.3", "198.51.100.4", "198.51.100.4"),
        ("172.20.0.5", "198.51.100.4", "198.51.100.4"), ("192.168.1.1", " 198.51.100.4 ", "198.51.100.4"), ("fd00::1", "198.51.100.4", "198.51.100.4"),
        ("::ffff:127.0.0.1", "198.51.100.4", "198.51.100.4"), ("203.0.113.9", "127.0.0.1", "203.0.113.9"), ("172.32.0.1", "1.2.3.4", "172.32.0.1"),
        ("127.0.0.1", "", "127.0.0.1"),
    ])
    func address(peer: String, forwardedFor: String, expected: String) {
        #expect(ClientAddress.of(Self.request(forwardedFor: forwardedFor), peer: peer) == expected)
    }

    @Test("no peer (no socket) and no header is one address, unknown")
    func unknown() {
        #expect(ClientAddress.of(Self.request(forwardedFor: nil), peer: nil) == "unknown")
        #expect(ClientAddress.of(Self.request(forwardedFor: nil), peer: "198.51.100.4") == "198.51.100.4")
    }
}
