import Testing

@testable import EntitleServer

@Suite("AuthenticationMiddleware")
struct AuthenticationMiddlewareTests {
    @Test("a Bearer value's key, without the spaces and tabs around it", arguments: [
        ("Bearer sk_live_1", "sk_live_1"),
        ("Bearer   sk_live_1", "sk_live_1"),
        ("Bearer \tpk_abc-_ \t", "pk_abc-_"),
        ("Bearer ak_é", "ak_é"),
        ("Bearer ak_a b", "ak_a b"),
        ("Bearer ", ""),
        ("Bearer  \t ", ""),
    ])
    func bearerKey(header: String, key: String) {
        #expect(AuthenticationMiddleware.bearerKey(header) == key)
    }

    @Test("any other scheme, or none, has no key", arguments: ["Basic c2s6", "bearer sk_live_1", "Bearersk_live_1", "sk_live_1", "", "Bearer"])
    func notBearer(header: String) {
        #expect(AuthenticationMiddleware.bearerKey(header) == nil)
    }
}
