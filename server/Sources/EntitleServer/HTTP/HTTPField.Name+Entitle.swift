import HTTPTypes

extension HTTPField.Name {
    /// `Entitle-App`: the app a request is for, when a server serves several.
    static let entitleApp = constant("Entitle-App")
    /// `Entitle-Subscriber-Key`: the public key a log-in with a token returns.
    static let entitleSubscriberKey = constant("Entitle-Subscriber-Key")
    /// `Entitle-Signature`: a subscriber answer's Ed25519 signature.
    static let entitleCustomerInfoSignature = constant(CustomerInfoSigner.header)
    /// `Prefer` (RFC 7240): how long a start request may wait.
    static let prefer = constant("Prefer")
    static let xForwardedProto = constant("X-Forwarded-Proto")
    static let xForwardedFor = constant("X-Forwarded-For")
    static let xForwardedHost = constant("X-Forwarded-Host")
    static let secFetchSite = constant("Sec-Fetch-Site")
    static let referrerPolicy = constant("Referrer-Policy")

    /// A field name this server names in its code: a literal, valid by construction (the header tests
    /// send and read every one), never a name a request supplies.
    private static func constant(_ name: String) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else { preconditionFailure("\(name) is not an HTTP field name") }
        return field
    }
}
