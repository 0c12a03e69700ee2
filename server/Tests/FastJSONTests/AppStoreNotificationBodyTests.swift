import AppStoreModels
import FastJSON
import Foundation
import Testing

/// A notification's HTTP body before verification: its signed payload and the app it names, read with
/// the cursor exactly as `JSONDecoder` reads them, or left to it.
@Suite("AppStoreNotificationBody")
struct AppStoreNotificationBodyTests {
    /// Apple's body, as `JSONDecoder` reads it.
    struct Body: Decodable { var signedPayload: String }

    static let bodies: [String] = [
        #"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.eyJ9.c2ln"}"#,
        " {\n \"signedPayload\" : \"a.b.c\" } \n",
        #"{"signedPayload":"a.b.c","extra":1}"#,
        #"{"signedPayload":"a\/b.c"}"#,
        #"{"signedPayload":"a.b.c","signedPayload":"d.e.f"}"#,
        #"{"signedPayload":null}"#,
        #"{"signedPayload":5}"#,
        #"{"signedPayload":"é.ü.ß"}"#,
        #"{"signedPayload":"a.b.c"} x"#,
        #"{"signedPayload":"a.b.c""#,
        #"{}"#,
        #"[]"#,
        "",
    ]

    @Test("a body the cursor reads is read as JSONDecoder reads it", arguments: bodies)
    func bodyRead(body: String) {
        let decoded = try? JSONDecoder().decode(Body.self, from: Data(body.utf8))
        if let read = Array(body.utf8).withUnsafeBytes({ AppStoreNotificationBody.signedPayload($0) }) {
            #expect(read == decoded?.signedPayload)
        }
    }

    /// Payloads of every shape routing meets: Apple's three parts, nested JWS and other members to step
    /// over, and what the cursor leaves to `JSONDecoder` (escapes, `null`, a key twice, wrong types).
    static let routedPayloads: [String] = [
        #"{"notificationType":"DID_RENEW","data":{"appAppleId":1234,"bundleId":"com.epilogue.app","signedTransactionInfo":"eyJ.eyJ.sig"},"version":"2.0"}"#,
        #"{"summary":{"requestIdentifier":"r","bundleId":"com.epilogue.app","storefrontCountryCodes":["USA","FRA"]},"signedDate":1}"#,
        #"{"externalPurchaseToken":{"bundleId":"com.epilogue.app","appAppleId":1},"notificationType":"EXTERNAL_PURCHASE_TOKEN"}"#,
        #"{"data":{"bundleId":"com.screentimerewards"},"summary":{"bundleId":"com.epilogue.app"}}"#,
        #"{"data":{"appAppleId":1},"summary":{"bundleId":"com.epilogue.app"}}"#,
        #"{"data":{"bundleId":"com.epilogue\/app"}}"#,
        #"{"data":{"bundleId":"com.epilogue.app"},"other":{"nested":[1,2.5e3,true,false,null,{"a":[]}]}}"#,
        #"{"data":null,"summary":{"bundleId":"com.epilogue.app"}}"#,
        #"{"data":{"bundleId":null}}"#,
        #"{"data":{"bundleId":"com.epilogue.app","bundleId":"com.screentimerewards"}}"#,
        #"{"data":{"bundleId":"com.epilogue.app"},"data":{"bundleId":"com.screentimerewards"}}"#,
        #"{"data":{"bundleId":42}}"#,
        #"{"data":[]}"#,
        #"{"data":{"bundleId":"com.epilogue.app"}"#,
        #"{"data":{"bundleId":"com.epilogue.app"}} trailing"#,
        #"[]"#,
        #"{}"#,
        " { \"data\" : { \"bundleId\" : \"com.epilogue.app\" } } ",
        #"{"d\u0061ta":{"bundleId":"com.epilogue.app"}}"#,
    ]

    @Test("a signed notification's bundle ID, read before verification, is the one JSONDecoder reads", arguments: routedPayloads)
    func routedBundleID(payload: String) throws {
        let signed = "\(Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))).\(Base64URL.encode(Array(payload.utf8))).c2ln"
        let decoded = try? JSONDecoder().decode(AppStoreNotificationBody.Route.self, from: Data(payload.utf8))
        let expected = decoded.flatMap { $0.data?.bundleId ?? $0.summary?.bundleId ?? $0.externalPurchaseToken?.bundleId }
        #expect(AppStoreNotificationBody.bundleID(ofSignedPayload: signed) == expected)
        // What the cursor reads, it reads as JSONDecoder does.
        if let read = Array(payload.utf8).withUnsafeBufferPointer({ AppStoreNotificationBody.Route.read($0) }) {
            #expect(read == decoded)
        }
    }

    @Test("a routed notification that isn't a JWS of JSON names no app", arguments: ["", "abc", "a.b", "a..c", "a.!!!.c", "a.\(Base64URL.encode(Array("not json".utf8))).c"])
    func unroutable(signed: String) {
        #expect(AppStoreNotificationBody.bundleID(ofSignedPayload: signed) == nil)
    }
}
