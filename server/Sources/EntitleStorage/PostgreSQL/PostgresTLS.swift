import Foundation
import PostgresNIO

/// How the ledger's connections to PostgreSQL use TLS, read from libpq's URL parameters `sslmode`
/// and `sslrootcert`, with libpq's meanings:
/// - `disable` (Entitle's default): no TLS;
/// - `prefer`: TLS when the server offers it, else plain;
/// - `require`: TLS or no connection; the certificate is not checked, unless `sslrootcert` names
///   the certificates to check it against (then as `verify-ca`);
/// - `verify-ca`: TLS, the server's certificate chained to `sslrootcert`'s certificates (or the
///   system's trusted roots when it names none); the name not checked;
/// - `verify-full`: as `verify-ca`, and the certificate names the host the URL connects to (a DNS
///   name, or the IP address).
///
/// `sslrootcert=system` trusts the system's roots and, as in libpq, needs `verify-full`. `allow`
/// (plain first) and client certificates (`sslcert`, `sslkey`) are refused. As in libpq, a Unix-socket
/// host ignores `sslmode`.
public struct PostgresTLS: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public let mode: Mode
    /// The certificates `sslrootcert` named, in its order; `nil`: none named (the system's roots).
    public let roots: [NIOSSLCertificate]?

    public static let disable = PostgresTLS(mode: .disable, roots: nil)

    init(mode: Mode, roots: [NIOSSLCertificate]?) {
        self.mode = mode
        self.roots = roots
    }

    /// Reads `sslmode` and `sslrootcert` (a PEM file, or `system`) from a URL's query items.
    init(queryItems items: [URLQueryItem]) throws(StorageError) {
        let value = { (name: String) in items.first { $0.name == name }?.value }
        for name in ["sslcert", "sslkey", "sslpassword"] where value(name) != nil {
            throw StorageError(.invalidURL, "\(name)= (a client certificate) is not supported; authenticate with a password")
        }
        let text = value("sslmode") ?? Mode.disable.rawValue
        guard let mode = Mode(rawValue: text) else {
            let known = Mode.allCases.map(\.rawValue).joined(separator: ", ")
            throw StorageError(.invalidURL, "sslmode=\(text) is not one of \(known)\(text == "allow" ? " (allow tries without TLS first; use prefer)" : "")")
        }
        switch value("sslrootcert") {
        case nil:
            self.init(mode: mode, roots: nil)
        case "system":
            guard mode == .verifyFull else {
                throw StorageError(.invalidURL, "sslrootcert=system trusts any certificate the system trusts, so it needs sslmode=verify-full")
            }
            self.init(mode: mode, roots: nil)
        case let path?:
            guard mode != .disable else { throw StorageError(.invalidURL, "sslrootcert= needs an sslmode that uses TLS") }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw StorageError(.invalidURL, "sslrootcert=\(path) is not a readable PEM file of certificates (\(error))")
            }
            guard !certificates.isEmpty else { throw StorageError(.invalidURL, "sslrootcert=\(path) holds no certificate") }
            self.init(mode: mode, roots: certificates)
        }
    }

    /// The TLS configuration connections use; `nil` when TLS is disabled.
    public var configuration: TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = roots == nil ? .none : .noHostnameVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let roots { configuration.trustRoots = .certificates(roots) }
        return configuration
    }

    /// The pool's TLS setting.
    var client: PostgresClient.Configuration.TLS {
        guard let configuration else { return .disable }
        return mode == .prefer ? .prefer(configuration) : .require(configuration)
    }

    /// The TLS setting of a connection made outside the pool.
    func connection() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration else { return .disable }
        let context = try NIOSSLContext(configuration: configuration)
        return mode == .prefer ? .prefer(context) : .require(context)
    }
}
