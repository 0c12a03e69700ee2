// swift-tools-version:6.1
import PackageDescription

/// `ENTITLE_SANITIZE=1` (scripts/test.sh and scripts/fuzz.sh set it): Entitle's own code is compiled
/// with libFuzzer's coverage and AddressSanitizer, every binary links AddressSanitizer (with lld; the
/// client package's AppStoreModels, which every binary links, carries that setting), and the fuzz
/// targets (Fuzz/Sources, docs/fuzzing.md) are built beside the rest, so one build serves the tests,
/// the demo and the fuzzers.
let sanitized = Context.environment["ENTITLE_SANITIZE"] == "1"

/// `ENTITLE_TEST_BUILD=1` (scripts/test.sh sets it, building with `-c release -Xswiftc -enable-testing`):
/// Entitle's own modules, in this package and the client package, are compiled unoptimized (`-Onone`,
/// as a debug build compiles them: a change recompiles at a debug build's speed, and their assertions
/// hold), their dependencies (swift-nio, BoringSSL, SQLite, Hummingbird, PostgresNIO…) optimized, once
/// per toolchain in the build cache. With `optimizedInTests`, the test binary runs in about two thirds of
/// a debug build's time (the README, "Development").
let testBuild = Context.environment["ENTITLE_TEST_BUILD"] == "1"
/// The few of Entitle's modules the tests spend most in (a profile of the test binary): optimized in the
/// test build too. FastJSON here; AppStoreModels and EntitleCore in the client package.
let optimizedInTests: [SwiftSetting] = testBuild ? [.unsafeFlags(["-O"])] : []

/// Settings shared by every target: Swift 6 language mode (complete concurrency checking) plus the
/// upcoming features the codebase is written against.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
] + (sanitized ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])
    + (testBuild ? [.unsafeFlags(["-Onone"])] : [])

/// SQLite's compile-time options: sqlite-nio's (those SQLite recommends, threadsafe, URIs, dbstat), less
/// what the ledger doesn't use (full-text search, R*Tree, sessions, the statement virtual table, column
/// metadata, unlock notification), which also keeps the amalgamation's compile short, and less
/// `SQLITE_SECURE_DELETE`: overwriting freed pages cost
/// 1.3–2× on the growth curve at 100k subscribers (ingestion, rebuild, dashboard) and protects nothing —
/// what the ledger frees (an older projection, aggregate or delivery state) is derived from events it
/// keeps for ever.
/// Declared before `package`, which reads it: a manifest is top-level code, run in order, and a `let`
/// read before its line is still empty (SQLite was compiled with none of these until this was moved).
let sqliteSettings: [CSetting] = [
    .define("SQLITE_DEFAULT_MEMSTATUS", to: "0"),
    .define("SQLITE_DISABLE_PAGECACHE_OVERFLOW_STATS"),
    .define("SQLITE_DQS", to: "0"),
    // `dbstat`: what each table and index takes on disk (LedgerFootprint, the growth benchmarks).
    .define("SQLITE_ENABLE_DBSTAT_VTAB"),
    // Misuse of SQLite's API answered SQLITE_MISUSE rather than undefined: in debug builds and the tests'.
    testBuild ? .define("SQLITE_ENABLE_API_ARMOR") : .define("SQLITE_ENABLE_API_ARMOR", .when(configuration: .debug)),
    .define("SQLITE_ENABLE_NULL_TRIM"),
    .define("SQLITE_MAX_VARIABLE_NUMBER", to: "250000"),
    .define("SQLITE_LIKE_DOESNT_MATCH_BLOBS"),
    .define("SQLITE_OMIT_COMPLETE"),
    .define("SQLITE_OMIT_DEPRECATED"),
    .define("SQLITE_OMIT_DESERIALIZE"),
    .define("SQLITE_OMIT_GET_TABLE"),
    .define("SQLITE_OMIT_LOAD_EXTENSION"),
    .define("SQLITE_OMIT_PROGRESS_CALLBACK"),
    .define("SQLITE_OMIT_SHARED_CACHE"),
    .define("SQLITE_OMIT_TCL_VARIABLE"),
    .define("SQLITE_OMIT_TRACE"),
    .define("SQLITE_THREADSAFE", to: "1"),
    .define("SQLITE_UNTESTABLE"),
    .define("SQLITE_USE_URI"),
    .define("HAVE_GETHOSTUUID", to: "0", .when(platforms: [.iOS])),
]

/// The server's package: everything an app does not link (the server, its storage, the CLI, the local App
/// Store, their tests and the fuzz targets). It depends on the client package at the repository root by
/// path, whose modules (AppStoreModels, EntitleCore, EntitleWire, EntitleAPI, EntitleKit) it shares.
/// macOS 15: the server uses Synchronization's `Mutex` and `Atomic` (docs/platforms.md).
let package = Package(
    name: "entitle-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "entitle", targets: ["entitle"]),
        .executable(name: "entitle-traced", targets: ["entitle-traced"]),
        .library(name: "FastJSON", targets: ["FastJSON"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "P256FixedKey", targets: ["P256FixedKey"]),
        .library(name: "EntitleAnalytics", targets: ["EntitleAnalytics"]),
        .library(name: "EntitleStorage", targets: ["EntitleStorage"]),
        .library(name: "EntitleServer", targets: ["EntitleServer"]),
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
        .library(name: "LocalAppStore", targets: ["LocalAppStore"]),
        .library(name: "EntitleTestSupport", targets: ["EntitleTestSupport"]),
    ],
    dependencies: [
        // The client package at the repository root (what an app adds): its modules are the core the server shares.
        .package(name: "Entitle", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.3.0"),
        // Only OTLP over HTTP (no gRPC); built for `entitle-traced` alone.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Strict, fast JSON: a byte-level cursor and writer, and with them Apple's payloads most often
        // read and written, held byte for byte to Foundation's coders (differential tests, libFuzzer).
        // Used where a profile showed Codable's cost (verification, the ledger's appends and reads, the
        // subscriber answer); Codable everywhere else.
        .target(name: "FastJSON", dependencies: [.product(name: "AppStoreModels", package: "Entitle")], swiftSettings: swiftSettings + optimizedInTests),
        // ECDSA P-256 verification for one key with comb tables (under half BoringSSL's cost a
        // signature). Optimized in every configuration: unoptimized, a table takes ~0.6 s and a
        // verification ~12 ms, which the tests and fuzzers that verify thousands of signatures can't
        // afford. Nothing the SDK links depends on it (unsafe flags are refused in remote dependencies).
        .target(
            name: "P256FixedKey",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings + [.unsafeFlags(["-O"])]
        ),
        // Verification of Apple's signed data: JWS, the x5c chain to a trusted root, Apple's OIDs,
        // bundle, environment and app; a chain cache so the steady state costs one P-256 verify.
        .target(
            name: "AppStoreVerification",
            dependencies: [
                .product(name: "AppStoreModels", package: "Entitle"), "FastJSON", "P256FixedKey",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // Subscription analytics from the ledger: each subscriber's cells (a pure function of their
        // events) and reports computed from the daily aggregates. Foundation only.
        .target(
            name: "EntitleAnalytics",
            dependencies: [
                .product(name: "EntitleCore", package: "Entitle"), .product(name: "EntitleWire", package: "Entitle"),
                .product(name: "AppStoreModels", package: "Entitle"),
            ], swiftSettings: swiftSettings),
        // The system's zlib (Debian: zlib1g-dev, which Swift's installation requires): the ledger
        // compresses the signed payloads it keeps.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // SQLite, embedded (Sources/CSQLite/NOTICE.md): the ledger's SQLite engine calls its C API.
        .target(name: "CSQLite", exclude: ["NOTICE.md"], cSettings: sqliteSettings),
        // glibc's <malloc.h> (mallinfo2, malloc_trim): the server's memory metrics and trimmer.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The ledger and projections behind one interface, on SQLite (embedded) and PostgreSQL.
        .target(
            name: "EntitleStorage",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "EntitleCore", package: "Entitle"), "EntitleAnalytics", "FastJSON", "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                "CSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A client of Apple's App Store Server API: ES256 tokens, retries, sandbox fallback, every signed
        // answer verified.
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                .product(name: "AppStoreModels", package: "Entitle"), "AppStoreVerification", .product(name: "EntitleAPI", package: "Entitle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server: each app's services by capability (ingestion, subscribers, admin, App Store sync, webhooks,
        // analytics, growth) and the HTTP API over them.
        .target(
            name: "EntitleServer",
            dependencies: [ .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "EntitleCore", package: "Entitle"), "EntitleStorage", "AppStoreVerification", .product(name: "AppStoreModels", package: "Entitle"), "FastJSON", .product(name: "EntitleWire", package: "Entitle"), "EntitleAnalytics", "AppStoreServerAPI", "CMalloc",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The local App Store: a certificate authority shaped like Apple's, a store that plays
        // subscription lifecycles and signs what the App Store would, and delivery like Apple's.
        .target(
            name: "LocalAppStore",
            dependencies: [ .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                // StoreKit's backend on Linux (LocalStoreKitBackend).
                .product(name: "StoreKitMirror", package: "Entitle", condition: .when(platforms: [.linux])),
                // Apple's checks of offer signatures (OfferSignatureCheck) read what AppStoreServerAPI signs.
                "AppStoreServerAPI",
                .product(name: "AppStoreModels", package: "Entitle"), "AppStoreVerification", .product(name: "EntitleCore", package: "Entitle"), .product(name: "EntitleWire", package: "Entitle"), .product(name: "EntitleAPI", package: "Entitle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `entitle` command line: commands and their output, kept in a library so tests can reach it.
        .target(
            name: "EntitleCLI",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"), .product(name: "EntitleWire", package: "Entitle"), .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "UnixSignals", package: "swift-service-lifecycle"), .product(name: "X509", package: "swift-certificates"),
                .product(name: "EntitleCore", package: "Entitle"), "EntitleAnalytics",
                "AppStoreVerification",
                "EntitleServer",
                "EntitleStorage",
                "LocalAppStore",
                .product(name: "EntitleAPI", package: "Entitle"),
                "AppStoreServerAPI",
                "EntitleExamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A headless app on EntitleKit's public API: `swift run sample-app … status|purchase|restore|access|use|login|offerings`.
        .executableTarget(name: "sample-app", dependencies: [.product(name: "EntitleKit", package: "Entitle")], path: "Examples/SampleApp", swiftSettings: swiftSettings),
        // The example apps' catalogs, shipped with the binary so `entitle demo` works from any folder.
        .target(
            name: "EntitleExamples", path: "Examples", exclude: ["SampleApp"], sources: ["ExampleApps.swift"],
            resources: [
                .copy("ScreenTimeRewards"), .copy("ScreenTimeRewardsTiers"), .copy("Epilogue"), .copy("PantryPal"), .copy("MagicalStories"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "entitle",
            dependencies: ["EntitleCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // `entitle` that exports traces over OTLP/HTTP (`serve --otel-endpoint`; docs/operations.md, "Traces"):
        // a product of its own, so building `entitle` never compiles swift-otel and its protobuf code.
        .executableTarget(
            name: "entitle-traced",
            dependencies: [
                "EntitleCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "OTel", package: "swift-otel"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Builders for Apple-shaped facts and a fixed reference time, shared by every test target.
        .target(
            name: "EntitleTestSupport",
            dependencies: [ .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "EntitleCore", package: "Entitle"), .product(name: "AppStoreModels", package: "Entitle"), "EntitleStorage", "LocalAppStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "AppStoreServerAPI", .product(name: "EntitleAPI", package: "Entitle"),
            ],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "AppStoreModelsTests", dependencies: [.product(name: "AppStoreModels", package: "Entitle"), "EntitleTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FastJSONTests", dependencies: ["FastJSON", .product(name: "AppStoreModels", package: "Entitle"), "EntitleTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "EntitleCoreTests",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"),.product(name: "EntitleCore", package: "Entitle"), "EntitleTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "P256FixedKeyTests",
            dependencies: [
                "P256FixedKey", .product(name: "EntitleCore", package: "Entitle"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"),
                "AppStoreVerification", "EntitleTestSupport", .product(name: "EntitleCore", package: "Entitle"), "P256FixedKey",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Vectors")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EntitleAnalyticsTests",
            dependencies: ["EntitleAnalytics", .product(name: "EntitleCore", package: "Entitle"), .product(name: "EntitleWire", package: "Entitle"), .product(name: "AppStoreModels", package: "Entitle"), "EntitleTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EntitleStorageTests",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"), .product(name: "EntitleCore", package: "Entitle"), "FastJSON", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "EntitleStorage", "EntitleTestSupport", "EntitleAnalytics", "AppStoreVerification",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EntitleServerTests",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"), "AppStoreServerAPI", "AppStoreVerification", "EntitleAnalytics", .product(name: "EntitleCore", package: "Entitle"), "EntitleStorage", .product(name: "EntitleWire", package: "Entitle"), .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                "EntitleServer", "EntitleTestSupport", "LocalAppStore", .product(name: "EntitleAPI", package: "Entitle"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [ .product(name: "HTTPTypes", package: "swift-http-types"),
                "AppStoreServerAPI", "AppStoreVerification", .product(name: "AppStoreModels", package: "Entitle"), .product(name: "EntitleAPI", package: "Entitle"), "EntitleTestSupport", "LocalAppStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Keys"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EntitleKitTests",
            dependencies: [ "EntitleStorage", .product(name: "EntitleWire", package: "Entitle"), .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "EntitleKit", package: "Entitle"), .product(name: "EntitleAPI", package: "Entitle"), "EntitleServer", "EntitleTestSupport", "AppStoreVerification", .product(name: "EntitleCore", package: "Entitle"), "entitle",
                "LocalAppStore", "AppStoreServerAPI", .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "StoreKitMirror", package: "Entitle", condition: .when(platforms: [.linux])),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LocalAppStoreTests",
            dependencies: [ .product(name: "AppStoreModels", package: "Entitle"), .product(name: "EntitleCore", package: "Entitle"),
                "LocalAppStore", "AppStoreVerification", "EntitleTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EntitleCLITests",
            dependencies: [ "EntitleAnalytics", .product(name: "EntitleCore", package: "Entitle"), "EntitleServer",
                "EntitleCLI", "entitle", "entitle-traced", "sample-app", "EntitleTestSupport", "EntitleStorage", .product(name: "EntitleWire", package: "Entitle"), .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ] + (sanitized ? fuzzTargets : [])
)

/// The fuzz targets (docs/fuzzing.md), built only with `ENTITLE_SANITIZE=1`: each links libFuzzer.
var fuzzTargets: [Target] {
    let fuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-Xclang-linker", "-fuse-ld=lld"])]
    // Written before the upcoming features the rest of the package enables.
    let settings: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    let server: [Target.Dependency] = [
        "FuzzSupport", "EntitleServer", "EntitleStorage", .product(name: "EntitleCore", package: "Entitle"), "LocalAppStore", "AppStoreVerification",
        .product(name: "Logging", package: "swift-log"),
    ]
    func fuzz(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: dependencies, path: "Fuzz/Sources/\(name)", swiftSettings: settings, linkerSettings: fuzzer)
    }
    return [
        .target(
            name: "FuzzSupport", dependencies: [.product(name: "X509", package: "swift-certificates")], path: "Fuzz/Sources/FuzzSupport",
            swiftSettings: settings),
        // The compact JWS parser, the x5c chain and the signature: nothing Entitle's root didn't sign is accepted.
        fuzz("FuzzVerifier", ["FuzzSupport", "AppStoreVerification", .product(name: "AppStoreModels", package: "Entitle"), .product(name: "X509", package: "swift-certificates")]),
        // ECDSA P-256 with a key's comb table: the same verdict as swift-crypto's on every input.
        fuzz("FuzzP256", ["FuzzSupport", "P256FixedKey", .product(name: "Crypto", package: "swift-crypto")]),
        // Apple's payload decoders: notifications, transactions, renewal info, app transactions.
        fuzz("FuzzDecoders", ["FuzzSupport", .product(name: "AppStoreModels", package: "Entitle"), "AppStoreServerAPI", "FastJSON"]),
        // The catalog loader: a `.storekit` file and an `entitlements.json`.
        fuzz("FuzzCatalog", ["FuzzSupport", .product(name: "EntitleCore", package: "Entitle")]),
        // The ledger's stored events, analytics cells and signed payloads, read without JSONDecoder.
        fuzz("FuzzStoredEvents", ["FuzzSupport", "EntitleStorage", .product(name: "EntitleCore", package: "Entitle"), "EntitleAnalytics"]),
        // Apple's signed data with fuzzed values through verify, append, fold, resolve, analytics and webhooks.
        fuzz("FuzzPipeline", server),
        // Every operation of the OpenAPI document with fuzzed values, through the server's router.
        fuzz("FuzzRequests", server + [
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
        ]),
        // The JSON request bodies the server decodes.
        fuzz("FuzzRequestBodies", ["FuzzSupport", .product(name: "EntitleWire", package: "Entitle")]),
    ]
}
