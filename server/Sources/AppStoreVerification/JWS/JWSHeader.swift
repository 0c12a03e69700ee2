import Foundation

/// The protected header of a JWS Apple signs: `alg` and the `x5c` certificate chain (standard
/// base64 DER, leaf first).
struct JWSHeader: Decodable, Sendable {
    var alg: String?
    var x5c: [String]?
}
