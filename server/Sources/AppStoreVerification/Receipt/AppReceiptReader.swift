import Foundation
import SwiftASN1

/// The transaction IDs of an app receipt (the base64 of `Bundle.main.appStoreReceiptURL`, Apple's
/// deprecated format): what `entitle import` asks Apple's history for, for an app moving in whose records
/// hold receipts rather than transaction IDs (docs/import.md).
///
/// Only the IDs are read: a PKCS #7 container (BER or DER) whose content is a set of receipt attributes,
/// the bundle ID (type 2) and each in-app purchase (type 17: a set of its own, with the original
/// transaction ID, 1703, and the transaction ID, 1705). The receipt's signature is not checked, and need
/// not be: nothing of the receipt enters the ledger. Apple's answer to each ID — the customer's history,
/// signed — is verified like any signed data, so a forged receipt can only name purchases Apple then
/// vouches for, or none.
public enum AppReceiptReader {
    /// The largest receipt read, in bytes of base64 (Apple's are a few kilobytes, more with many purchases).
    public static let largestReceipt = 4 << 20

    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// The receipt's original transaction IDs (each purchase once, in the receipt's order), or its
    /// transaction IDs where no original one is given.
    /// - Parameter bundleID: the app's; a receipt naming another is refused.
    public static func transactionIDs(base64 text: String, bundleID: String) throws(AppReceiptError) -> [String] {
        guard text.utf8.count <= largestReceipt,
            let bytes = Data(base64Encoded: text.filter { !$0.isWhitespace }), !bytes.isEmpty
        else { throw AppReceiptError(.notBase64, "the receipt is not base64 of at most \(largestReceipt) bytes") }
        let attributes: [Attribute]
        do {
            attributes = try Self.attributes(Array(bytes))
        } catch let error as AppReceiptError {
            throw error
        } catch {
            throw AppReceiptError(.malformed, "the receipt is not a PKCS #7 container of receipt attributes (\(error))")
        }
        if let bundle = attributes.first(where: { $0.type == 2 }), let name = Self.utf8(bundle.value), name != bundleID {
            throw AppReceiptError(.otherApp, "the receipt is \(name)'s, not \(bundleID)'s")
        }
        var ids: [String] = []
        for purchase in attributes where purchase.type == 17 {
            let fields: [Attribute]
            do {
                fields = try Self.attributeSet(BER.parse(purchase.value))
            } catch {
                throw AppReceiptError(.malformed, "an in-app purchase of the receipt is not a set of attributes (\(error))")
            }
            let original = fields.first { $0.type == 1703 }.flatMap { Self.utf8($0.value) }
            let transaction = fields.first { $0.type == 1705 }.flatMap { Self.utf8($0.value) }
            guard let id = original.flatMap({ $0.isEmpty ? nil : $0 }) ?? transaction, !id.isEmpty else { continue }
            if !ids.contains(id) { ids.append(id) }
        }
        guard !ids.isEmpty else { throw AppReceiptError(.noPurchases, "the receipt lists no in-app purchase") }
        return ids
    }

    /// One receipt attribute: its type and the bytes of its value (an encoded ASN.1 value).
    struct Attribute {
        let type: Int
        let value: ArraySlice<UInt8>
    }

    /// ContentInfo → SignedData → encapContentInfo → eContent: the receipt's attribute set.
    static func attributes(_ bytes: [UInt8]) throws -> [Attribute] {
        let root = try BER.parse(bytes)
        let content: ArraySlice<UInt8> = try BER.sequence(root, identifier: .sequence) { nodes in
            guard try ASN1ObjectIdentifier(berEncoded: Self.next(&nodes)) == Self.signedData else {
                throw AppReceiptError(.malformed, "the container is not PKCS #7 signed data")
            }
            return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { signedData in
                try BER.sequence(signedData, identifier: .sequence) { fields in
                    _ = try Self.next(&fields)  // version
                    _ = try Self.next(&fields)  // digest algorithms
                    let content = try BER.sequence(Self.next(&fields), identifier: .sequence) { encapsulated in
                        guard try ASN1ObjectIdentifier(berEncoded: Self.next(&encapsulated)) == Self.data else {
                            throw AppReceiptError(.malformed, "the signed content is not data")
                        }
                        return try BER.explicitlyTagged(&encapsulated, tagNumber: 0, tagClass: .contextSpecific) { node in
                            try ASN1OctetString(berEncoded: node).bytes
                        }
                    }
                    // The certificates and signer infos: not read (see above).
                    while fields.next() != nil {}
                    return content
                }
            }
        }
        return try attributeSet(BER.parse(content))
    }

    /// A SET OF ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }.
    static func attributeSet(_ node: ASN1Node) throws -> [Attribute] {
        try BER.set(node, identifier: .set) { nodes in
            var attributes: [Attribute] = []
            while let element = nodes.next() {
                attributes.append(try BER.sequence(element, identifier: .sequence) { fields in
                    let type = try Int(berEncoded: Self.next(&fields))
                    _ = try Self.next(&fields)  // version
                    let value = try ASN1OctetString(berEncoded: Self.next(&fields)).bytes
                    while fields.next() != nil {}
                    return Attribute(type: type, value: value)
                })
            }
            return attributes
        }
    }

    /// The UTF-8 (or IA5) string an attribute's value encodes, `nil` when it is none.
    static func utf8(_ value: ArraySlice<UInt8>) -> String? {
        guard let node = try? BER.parse(value) else { return nil }
        if let string = try? ASN1UTF8String(berEncoded: node) { return String(decoding: string.bytes, as: UTF8.self) }
        if let string = try? ASN1IA5String(berEncoded: node) { return String(decoding: string.bytes, as: UTF8.self) }
        return nil
    }

    private static func next(_ nodes: inout ASN1NodeCollection.Iterator) throws -> ASN1Node {
        guard let node = nodes.next() else { throw AppReceiptError(.malformed, "the receipt ends early") }
        return node
    }
}
