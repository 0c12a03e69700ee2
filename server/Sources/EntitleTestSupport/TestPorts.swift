import Foundation
import NIOConcurrencyHelpers

/// Ports for servers tests start as processes: below Linux's ephemeral range (32768 and up), so the
/// outgoing connections of other tests can't be holding them; handed out in turn from a random start,
/// so two tests of one run never get the same port.
public enum TestPorts {
    private static let next = NIOLockedValueBox(20_000 + Int.random(in: 0..<6_000))

    public static func random() -> Int {
        next.withLockedValue { port in
            defer { port = port >= 31_999 ? 20_000 : port + 1 }
            return port
        }
    }
}
