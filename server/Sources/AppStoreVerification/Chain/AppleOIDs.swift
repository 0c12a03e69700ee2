import SwiftASN1

/// The marker extensions Apple puts in the certificates that sign App Store data.
public enum AppleOIDs {
    /// On the intermediate: Apple Worldwide Developer Relations (1.2.840.113635.100.6.2.1).
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// On the leaf: Mac App Store and iTunes Store receipt signing (1.2.840.113635.100.6.11.1).
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
}
