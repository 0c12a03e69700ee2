import AppStoreModels
import AppStoreVerification
import Benchmark
import BenchmarkSupport
import Foundation

// MARK: - The benchmarks

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 100_000)

    Benchmark("P-256 verify (raw)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(leafKey.isValidSignature(rawSignature, for: rawDigest))
        }
    }

    Benchmark("JWS floor: parse + ES256 verify, no chain (transaction)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(verifyWithoutChain(signedTransaction, as: JWSTransactionDecodedPayload.self))
        }
    }

    let warmVerifier = makeVerifier()
    Benchmark("transaction warm") { benchmark in
        _ = try await warmVerifier.verifyTransaction(signedTransaction)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await warmVerifier.verifyTransaction(signedTransaction))
        }
    }

    Benchmark("transaction cold (empty cache)") { benchmark in
        let verifier = makeVerifier()
        for _ in benchmark.scaledIterations {
            verifier.clearCache()
            blackHole(try await verifier.verifyTransaction(signedTransaction))
        }
    }

    Benchmark("notification warm (with nested transaction and renewal info)") { benchmark in
        _ = try await warmVerifier.verifyNotification(signedNotification)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await warmVerifier.verifyNotification(signedNotification))
        }
    }

    Benchmark("notification cold (empty cache)") { benchmark in
        let verifier = makeVerifier()
        for _ in benchmark.scaledIterations {
            verifier.clearCache()
            blackHole(try await verifier.verifyNotification(signedNotification))
        }
    }

}
