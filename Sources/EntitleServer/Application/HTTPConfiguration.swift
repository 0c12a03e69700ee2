import Foundation

/// The HTTP configuration of the server.
public struct HTTPConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Bodies larger than this are refused with 413.
    public var maximumBodySize: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 1024 * 1024) {
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
    }
}
