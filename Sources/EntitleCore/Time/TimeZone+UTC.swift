import Foundation

extension TimeZone {
    /// UTC, as the App Store computes subscription periods and as a subscriber's default time zone is
    /// stored (identifier `UTC`); GMT, the same offset, where a system has no `UTC` zone.
    public static let utc: TimeZone = TimeZone(identifier: "UTC") ?? .gmt
}
