import AppStoreVerification
import Crypto
import Foundation
import Testing
import SwiftASN1
import X509

@Suite("AppleRootCertificates")
struct AppleRootCertificatesTests {
    @Test("the shipped root is Apple Root CA - G3, by its SHA-256 fingerprint")
    func fingerprint() {
        let digest = SHA256.hash(data: AppleRootCertificates.appleRootCAG3DER)
        let hex = digest.map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(hex == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        #expect(AppleRootCertificates.appleRootCAG3DER.count == 583)
    }

    @Test("it parses with Apple's subject and validity")
    func parsed() {
        let root = AppleRootCertificates.appleRootCAG3
        #expect(root.subject.description == "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3")
        #expect(root.notValidAfter == Date(timeIntervalSince1970: 2_187_800_346))
    }

    @Test("Apple's production intermediate chains to it")
    func productionIntermediate() throws {
        let intermediate = try VectorFiles.certificate("apple/extracted-inline-certs/real_apple_intermediate.der")
        #expect(AppleRootCertificates.appleRootCAG3.publicKey.isValidSignature(intermediate.signature, for: intermediate))
    }
}
