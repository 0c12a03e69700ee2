import AppStoreModels
import AppStoreVerification
import Foundation
import FuzzSupport
import X509

/// Verifies every input as each kind of signed data against the production-shaped vectors' root. A
/// verification that succeeds for anything but the exact signed bytes of a seed is a false accept:
/// the target traps, and libFuzzer saves the input.
enum Target {
  static let verifier: SignedDataVerifier = {
    let vectors = packageRoot.appendingPathComponent(
      "Tests/AppStoreVerificationTests/Vectors/apple-shaped")
    let root = try! Certificate(
      derEncoded: Array(Data(contentsOf: vectors.appendingPathComponent("root.der"))))
    let signedDate = Date(timeIntervalSince1970: 1_759_276_800)  // 2025-10-01, the vectors' signedDate
    return SignedDataVerifier(
      configuration: VerifierConfiguration(
        bundleID: "com.example", environment: .sandbox, appAppleID: 1234, rootCertificates: [root]),
      now: { signedDate })
  }()

  /// `header.payload` of every seed: the only signed content that may verify.
  static let signedParts: Set<Substring> = {
    let vectors = packageRoot.appendingPathComponent(
      "Tests/AppStoreVerificationTests/Vectors/apple-shaped")
    let names = [
      "signedNotification", "signedRenewalInfo", "signedSummaryNotification", "signedTransaction",
    ]
    return Set(
      names.compactMap { name in
        (try? String(contentsOf: vectors.appendingPathComponent(name), encoding: .utf8)).map {
          signedPart(of: $0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
      })
  }()

  static func signedPart(of text: String) -> Substring {
    guard let dot = text.lastIndex(of: ".") else { return Substring(text) }
    return text[..<dot]
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = pointer else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  let accepted = runBlocking { () -> [String] in
    var accepted: [String] = []
    if (try? await Target.verifier.verifyTransaction(text)) != nil {
      accepted.append("transaction")
    }
    if (try? await Target.verifier.verifyRenewalInfo(text)) != nil {
      accepted.append("renewal info")
    }
    if (try? await Target.verifier.verifyNotification(text)) != nil {
      accepted.append("notification")
    }
    if (try? await Target.verifier.verifyAppTransaction(text)) != nil {
      accepted.append("app transaction")
    }
    if (try? await Target.verifier.verifyRealtimeRequest(text)) != nil {
      accepted.append("realtime request")
    }
    return accepted
  }
  if !accepted.isEmpty && !Target.signedParts.contains(Target.signedPart(of: text)) {
    fatalError("false accept as \(accepted): content the root never signed verified")
  }
  return 0
}

runFuzzer(fuzz)
