import Foundation
import SwiftASN1
import X509

/// The trust anchors Entitle ships with.
public enum AppleRootCertificates {
    /// Apple Root CA - G3 (DER), the root App Store signed data chains to.
    /// (Empty only if the text below were not base64: the tests check its fingerprint.)
    /// SHA-256 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79.
    public static let appleRootCAG3DER: [UInt8] = Array(Data(base64Encoded: """
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBs\
        ZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcNMTQwNDMwMTgxOTA2WhcNMzkw\
        NDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9yaXR5\
        MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHc\
        FBbZDuWmBSp3ZHtfTjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517IDvYuVTZXpmkOlEKMaNCMEAwHQYD\
        VR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySrMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD\
        6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+Yhi\
        dDkLF1vLUagM6BgD56KyKA==
        """) ?? Data())

    /// Apple Root CA - G3, parsed.
    public static let appleRootCAG3: Certificate = {
        do {
            return try Certificate(derEncoded: appleRootCAG3DER)
        } catch {
            // Built in and checked by its SHA-256 fingerprint in the tests: no input reaches this.
            preconditionFailure("Apple Root CA - G3, built in, does not parse: \(error)")
        }
    }()
}
