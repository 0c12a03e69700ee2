import Foundation

/// Ports for servers tests start as processes: below Linux's ephemeral range (32768 and up), so the
/// outgoing connections of other tests can't be holding them.
public enum TestPorts {
    public static func random() -> Int { 20_000 + Int.random(in: 0..<12_000) }
}
