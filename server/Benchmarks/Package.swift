// swift-tools-version:6.1
import PackageDescription

/// Entitle's benchmarks, kept out of the main package so ordinary builds don't compile them.
/// Run with `swift package --package-path Benchmarks benchmark` (see docs/benchmarks.md).
let package = Package(
    name: "EntitleBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "entitle-server", path: ".."),
        .package(name: "Entitle", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "AppStoreVerification", package: "entitle-server"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "VerificationScaling",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "AppStoreVerification", package: "entitle-server"),
                .product(name: "AppStoreModels", package: "Entitle"),
            ]
        ),
        .executableTarget(
            name: "ServerLoad",
            dependencies: [
                .product(name: "EntitleServer", package: "entitle-server"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "AppStoreVerification", package: "entitle-server"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "LedgerPopulation",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleAnalytics", package: "entitle-server"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "LocalAppStore", package: "entitle-server"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "ImportLoad",
            dependencies: [
                "LedgerPopulation",
                .product(name: "AppStoreServerAPI", package: "entitle-server"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "LocalAppStore", package: "entitle-server"),
            ]
        ),
        .executableTarget(
            name: "ExportLoad",
            dependencies: [
                "LedgerPopulation",
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "GrowthCurves",
            dependencies: [
                "LedgerPopulation",
                .product(name: "LocalAppStore", package: "entitle-server"),
                .product(name: "AppStoreServerAPI", package: "entitle-server"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleAnalytics", package: "entitle-server"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "LoadPopulation",
            dependencies: [
                "LedgerPopulation",
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "Soak",
            dependencies: [
                "LedgerPopulation",
                "BenchmarkSupport",
                .product(name: "EntitleAnalytics", package: "entitle-server"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "ClusterSoak",
            dependencies: [
                "LedgerPopulation",
                "BenchmarkSupport",
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "AppStoreServerAPI", package: "entitle-server"),
                .product(name: "LocalAppStore", package: "entitle-server"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "PostgresRoundTrip",
            dependencies: [
                "LedgerPopulation",
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .executableTarget(
            name: "AnalyticsLoad",
            dependencies: [
                "LedgerPopulation",
                .product(name: "EntitleAnalytics", package: "entitle-server"),
                .product(name: "EntitleStorage", package: "entitle-server"),
                .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "EntitleTestSupport", package: "entitle-server"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .executableTarget(
            name: "VerificationBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppStoreVerification", package: "entitle-server"),
                .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Benchmarks/VerificationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
