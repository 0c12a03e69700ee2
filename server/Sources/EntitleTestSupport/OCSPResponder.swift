import Crypto
import Foundation
import SwiftASN1
import X509

/// An OCSP responder (RFC 6960) for one issuing certificate authority, answering with DER built here
/// and signed with the issuer's P-384 key, the way a CA answers for the certificates it issued.
///
/// It echoes the request's CertID and nonce, names itself by the issuer's subject, and answers the
/// status it is told to. Tests serve it over loopback HTTP so revocation checking runs the real
/// transport and swift-certificates' OCSP policy against a responder that says "good".
public struct OCSPResponder: Sendable {
    /// What the responder says about the certificate asked for.
    public enum Answer: Sendable, Hashable {
        case good
        case revoked(at: Date)
        case unknown
        /// A non-successful response status: `tryLater` (3).
        case tryLater
        /// A non-successful response status: `internalError` (2).
        case internalError
    }

    public struct MalformedRequest: Error, CustomStringConvertible {
        public var description: String { "the body is not an OCSP request with a CertID" }
    }

    public let issuer: Certificate
    private let issuerKey: P384.Signing.PrivateKey

    public init(issuer: Certificate, issuerKey: P384.Signing.PrivateKey) {
        self.issuer = issuer
        self.issuerKey = issuerKey
    }

    /// The DER response to a DER request at `now`: valid from a minute before `now` for an hour.
    public func respond(to request: [UInt8], answer: Answer, now: Date) throws -> [UInt8] {
        switch answer {
        case .tryLater: return Self.unsuccessful(status: 3)
        case .internalError: return Self.unsuccessful(status: 2)
        case .good, .revoked, .unknown: break
        }
        let (certID, extensions) = try Self.parse(request)

        var data = DER.Serializer()
        try data.appendConstructedNode(identifier: .sequence) { responseData in
            try responseData.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) { name in
                try name.serialize(issuer.subject)
            }
            try responseData.serialize(Self.time(now))
            try responseData.appendConstructedNode(identifier: .sequence) { responses in
                try responses.appendConstructedNode(identifier: .sequence) { single in
                    single.serializeRawBytes(certID)
                    switch answer {
                    case .good:
                        single.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) { _ in }
                    case .revoked(let at):
                        try single.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) { info in
                            try info.serialize(Self.time(at))
                        }
                    default:
                        single.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 2, tagClass: .contextSpecific)) { _ in }
                    }
                    try single.serialize(Self.time(now.addingTimeInterval(-60)))
                    try single.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) { next in
                        try next.serialize(Self.time(now.addingTimeInterval(3600)))
                    }
                }
            }
            if let extensions {
                responseData.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) { wrapped in
                    wrapped.serializeRawBytes(extensions)
                }
            }
        }
        let tbs = data.serializedBytes
        let signature = try issuerKey.signature(for: SHA384.hash(data: tbs)).derRepresentation

        var basic = DER.Serializer()
        try basic.appendConstructedNode(identifier: .sequence) { response in
            response.serializeRawBytes(tbs)
            try response.appendConstructedNode(identifier: .sequence) { algorithm in
                try algorithm.serialize(ASN1ObjectIdentifier(arrayLiteral: 1, 2, 840, 10045, 4, 3, 3))  // ecdsa-with-SHA384
            }
            try response.serialize(ASN1BitString(bytes: ArraySlice(signature)))
        }

        var out = DER.Serializer()
        try out.appendConstructedNode(identifier: .sequence) { response in
            response.appendPrimitiveNode(identifier: .enumerated) { $0.append(0) }  // successful
            try response.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) { bytes in
                try bytes.appendConstructedNode(identifier: .sequence) { responseBytes in
                    try responseBytes.serialize(ASN1ObjectIdentifier(arrayLiteral: 1, 3, 6, 1, 5, 5, 7, 48, 1, 1))  // id-pkix-ocsp-basic
                    try responseBytes.serialize(ASN1OctetString(contentBytes: ArraySlice(basic.serializedBytes)))
                }
            }
        }
        return out.serializedBytes
    }

    private static func unsuccessful(status: UInt8) -> [UInt8] {
        var out = DER.Serializer()
        out.appendConstructedNode(identifier: .sequence) { response in
            response.appendPrimitiveNode(identifier: .enumerated) { $0.append(status) }
        }
        return out.serializedBytes
    }

    /// The first request's CertID and the request's extensions (the nonce), as DER.
    private static func parse(_ request: [UInt8]) throws -> (certID: ArraySlice<UInt8>, extensions: ArraySlice<UInt8>?) {
        func children(_ node: ASN1Node) -> [ASN1Node] {
            guard case .constructed(let nodes) = node.content else { return [] }
            return Array(nodes)
        }
        let root = try DER.parse(request)
        guard let tbs = children(root).first else { throw MalformedRequest() }
        let parts = children(tbs)
        guard let list = parts.first(where: { $0.identifier == .sequence }), let single = children(list).first,
            let certID = children(single).first, certID.identifier == .sequence
        else { throw MalformedRequest() }
        let extensions = parts.first { $0.identifier == ASN1Identifier(tagWithNumber: 2, tagClass: .contextSpecific) }
            .flatMap { children($0).first?.encodedBytes }
        return (certID.encodedBytes, extensions)
    }

    private static func time(_ date: Date) throws -> GeneralizedTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return try GeneralizedTime(
            year: c.year!, month: c.month!, day: c.day!, hours: c.hour!, minutes: c.minute!, seconds: c.second!, fractionalSeconds: 0)
    }
}
