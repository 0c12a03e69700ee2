extension Array where Element == SignedDataVerifier {
    /// `check` by the verifier of each accepted environment in turn, until one accepts: an environment
    /// mismatch moves to the next; any other refusal is the answer (the environments share Apple's roots).
    /// With every environment mismatched, the last mismatch.
    public func firstAccepting<T>(_ check: (SignedDataVerifier) async throws(VerificationError) -> T) async throws(VerificationError) -> T {
        var last: VerificationError?
        for verifier in self {
            do {
                return try await check(verifier)
            } catch where error.code == .environment {
                last = error
            }
        }
        throw last ?? VerificationError(.environment, "no environment is accepted")
    }
}
