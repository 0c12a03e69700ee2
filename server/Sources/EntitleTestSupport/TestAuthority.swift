import LocalAppStore

/// The local App Store's authority as the tests' servers trust it, made once for the process (its P-384
/// keys and certificates take a debug build milliseconds a harness need not spend again). A test that
/// needs an authority its servers don't trust (a stranger's) makes one.
public enum TestAuthority {
    public static func shared() throws -> LocalCertificateAuthority { try authority.get() }
    private static let authority = Result { try LocalCertificateAuthority.create(now: ReferenceTime.start) }
}
