import AppStoreModels
import AppStoreVerification
import BenchmarkSupport
import Foundation

/// Throughput of verification with one task and with two, beside the no-chain JWS floor, measured in
/// one process outside the benchmark harness (whose runner executes child tasks on a single thread).
/// Prints operations per second and the two-task/one-task ratio of each workload (or of those whose
/// name contains the first argument).
@main
enum VerificationScaling {
    static let operations = 4_000
    static let rounds = 7

    static func main() async throws {
        let verifier = makeVerifier()
        _ = try await verifier.verifyTransaction(signedTransaction)
        let workloads: [(String, @Sendable () async -> Void)] = [
            ("JWS floor (no chain)", { _ = verifyWithoutChain(signedTransaction, as: JWSTransactionDecodedPayload.self) }),
            ("transaction, warm", { _ = try? await verifier.verifyTransaction(signedTransaction) }),
            ("notification + nested, warm", { _ = try? await verifier.verifyNotification(signedNotification) }),
        ]
        // An argument runs only the workloads whose name contains it (`notification`, to profile one).
        let only = CommandLine.arguments.dropFirst().first
        print("| workload | 1 task (ops/s) | 2 tasks (ops/s) | 2 tasks / 1 task |")
        print("|---|---:|---:|---:|")
        for (name, work) in workloads where only.map(name.contains) ?? true {
            let one = try await median { try await throughput(tasks: 1, work) }
            let two = try await median { try await throughput(tasks: 2, work) }
            print("| \(name) | \(Int(one)) | \(Int(two)) | \(String(format: "%.2f", two / one))× |")
        }
    }

    static func median(_ measure: @Sendable () async throws -> Double) async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds { samples.append(try await measure()) }
        return samples.sorted()[rounds / 2]
    }

    static func throughput(tasks: Int, _ work: @escaping @Sendable () async -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask {
                        for _ in 0..<(operations / tasks) { await work() }
                    }
                }
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(operations) / seconds
    }
}
