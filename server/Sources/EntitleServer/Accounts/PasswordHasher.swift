import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import _CryptoExtras

/// Passwords hashed with scrypt, a memory-hard function (RFC 7914), kept in PHC form —
/// `$scrypt$ln=17,r=8,p=1$SALT$HASH` (base64, no padding) — so a hash made under one cost is checked
/// under the cost it names, and an account moves to a new cost at its next sign-in.
///
/// The work runs on NIO's blocking thread pool, never on the event loops or Swift's cooperative threads;
/// at most ``maximumInFlight`` at once on an instance (each takes 128 × r × 2^ln bytes: 128 MiB at the
/// standard cost), the next refused with `server.busy`.
public struct PasswordHasher: Sendable {
    /// scrypt's parameters: N = 2^logN, block size r, parallelism p.
    public struct Cost: Hashable, Sendable {
        public var logN: Int
        public var blockSize: Int
        public var parallelism: Int

        /// OWASP's recommendation for scrypt: N = 2^17, r = 8, p = 1 (128 MiB, ~0.3 s on one core here).
        public static let standard = Cost(logN: 17, blockSize: 8, parallelism: 1)
        /// For tests only: the same function at 1/128th of the memory.
        public static let testing = Cost(logN: 10, blockSize: 8, parallelism: 1)

        public init(logN: Int, blockSize: Int, parallelism: Int) {
            self.logN = logN
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// What a stored hash may name: anything outside is a corrupt or hostile row, refused without work.
        var isAcceptable: Bool { (10...20).contains(logN) && (1...16).contains(blockSize) && (1...4).contains(parallelism) }
    }

    /// The passwords the dashboard takes: 12 to 256 characters.
    public static let lengths = 12...256
    static let maximumInFlight = 4

    public let cost: Cost
    private let inFlight: InFlight

    public init(cost: Cost = .standard) {
        self.cost = cost
        self.inFlight = InFlight(limit: Self.maximumInFlight)
    }

    /// The PHC string of `password` with a new random salt.
    public func hash(_ password: String) async throws(ServiceError) -> String {
        let cost = cost
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let derived = try await run { try Self.derive(password, salt: salt, cost: cost) }
        return "$scrypt$ln=\(cost.logN),r=\(cost.blockSize),p=\(cost.parallelism)$\(Self.encode(salt))$\(Self.encode(derived))"
    }

    /// Whether `password` is the one `stored` was made from; `false` for any stored text that isn't a
    /// hash of ours (no work done then).
    public func verify(_ password: String, against stored: String) async throws(ServiceError) -> Bool {
        guard let parsed = Self.parse(stored) else { return false }
        let derived = try await run { try Self.derive(password, salt: parsed.salt, cost: parsed.cost, length: parsed.hash.count) }
        return APIKeys.constantTimeEqual(Array(derived), Array(parsed.hash))
    }

    /// Whether `stored` was made under another cost than this hasher's (rehashed at the next sign-in).
    public func needsRehash(_ stored: String) -> Bool { Self.parse(stored)?.cost != cost }

    private func run(_ work: @escaping @Sendable () throws -> Data) async throws(ServiceError) -> Data {
        guard inFlight.enter() else { throw ServiceError(.busy, "too many sign-ins at once; try again in a moment") }
        defer { inFlight.leave() }
        do {
            return try await NIOThreadPool.singleton.runIfActive { try work() }
        } catch {
            throw ServiceError(.internalError, "the password could not be hashed")
        }
    }

    static func derive(_ password: String, salt: Data, cost: Cost, length: Int = 32) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: length, rounds: 1 << cost.logN, blockSize: cost.blockSize,
            parallelism: cost.parallelism)
        return key.withUnsafeBytes { Data($0) }
    }

    static func parse(_ stored: String) -> (cost: Cost, salt: Data, hash: Data)? {
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, parts[1].utf8.count <= 3, let value = Int(parts[1]) else { return nil }
            values[parts[0]] = value
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"], values.count == 3 else { return nil }
        let cost = Cost(logN: logN, blockSize: r, parallelism: p)
        guard cost.isAcceptable, let salt = decode(fields[3]), let hash = decode(fields[4]), (8...64).contains(salt.count), (16...64).contains(hash.count)
        else { return nil }
        return (cost, salt, hash)
    }

    static func encode(_ data: Data) -> String {
        String(data.base64EncodedString().prefix { $0 != "=" })
    }

    static func decode(_ text: Substring) -> Data? {
        guard text.utf8.count <= 128 else { return nil }
        let padded = String(text) + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: padded)
    }

    /// How many hashes run at once on this instance.
    final class InFlight: Sendable {
        private let count: NIOLockedValueBox<Int>
        let limit: Int

        init(limit: Int) {
            self.limit = limit
            self.count = NIOLockedValueBox(0)
        }

        func enter() -> Bool {
            count.withLockedValue { count in
                guard count < limit else { return false }
                count += 1
                return true
            }
        }

        func leave() { count.withLockedValue { $0 -= 1 } }
    }
}
