import Foundation
import SwiftASN1

/// An app receipt in Apple's deprecated format (a PKCS #7 container of receipt attributes), as an app
/// that kept receipts has them: what `entitle import` reads transaction IDs from (``AppReceiptReader``
/// in AppStoreVerification). The container carries no signature: nothing reads one, since Apple's
/// history, fetched by those IDs, is what is verified and stored.
public enum LocalAppReceipt {
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// The receipt of `bundleID` listing `purchases` (transaction and original transaction IDs), base64.
    public static func base64(bundleID: String, purchases: [(transactionID: String, originalTransactionID: String)]) throws -> String {
        var payload = DER.Serializer()
        try payload.appendConstructedNode(identifier: .set) { set in
            try attribute(2, utf8: bundleID, into: &set)
            try attribute(3, utf8: "1.0", into: &set)
            for purchase in purchases {
                var inApp = DER.Serializer()
                try inApp.appendConstructedNode(identifier: .set) { fields in
                    try attribute(1703, utf8: purchase.originalTransactionID, into: &fields)
                    try attribute(1705, utf8: purchase.transactionID, into: &fields)
                }
                try set.appendConstructedNode(identifier: .sequence) { attribute in
                    try attribute.serialize(17)
                    try attribute.serialize(1)
                    try attribute.serialize(ASN1OctetString(contentBytes: ArraySlice(inApp.serializedBytes)))
                }
            }
        }
        var container = DER.Serializer()
        try container.appendConstructedNode(identifier: .sequence) { contentInfo in
            try contentInfo.serialize(Self.signedData)
            try contentInfo.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { explicit in
                try explicit.appendConstructedNode(identifier: .sequence) { signedData in
                    try signedData.serialize(1)
                    signedData.appendConstructedNode(identifier: .set) { _ in }
                    try signedData.appendConstructedNode(identifier: .sequence) { encapsulated in
                        try encapsulated.serialize(Self.data)
                        try encapsulated.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { content in
                            try content.serialize(ASN1OctetString(contentBytes: ArraySlice(payload.serializedBytes)))
                        }
                    }
                    signedData.appendConstructedNode(identifier: .set) { _ in }
                }
            }
        }
        return Data(container.serializedBytes).base64EncodedString()
    }

    private static func attribute(_ type: Int, utf8 value: String, into coder: inout DER.Serializer) throws {
        var encoded = DER.Serializer()
        try encoded.serialize(ASN1UTF8String(value))
        try coder.appendConstructedNode(identifier: .sequence) { attribute in
            try attribute.serialize(type)
            try attribute.serialize(1)
            try attribute.serialize(ASN1OctetString(contentBytes: ArraySlice(encoded.serializedBytes)))
        }
    }
}
