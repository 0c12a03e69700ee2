// swift-tools-version:6.1
import PackageDescription

/// What the targets that run the server's own code (a ledger, the service, the router) link.
let serverTargetDependencies: [Target.Dependency] = [
    "FuzzSupport", .product(name: "EntitleServer", package: "Entitle"), .product(name: "EntitleStorage", package: "Entitle"),
    .product(name: "EntitleCore", package: "Entitle"), .product(name: "LocalAppStore", package: "Entitle"),
    .product(name: "AppStoreVerification", package: "Entitle"), .product(name: "Logging", package: "swift-log"),
]

/// libFuzzer targets for Entitle's parsers and decoders, kept out of the main package: they are built
/// with `-sanitize=fuzzer,address` (scripts/fuzz.sh), which instruments every module they link.
let package = Package(
    name: "EntitleFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Entitle", path: ".."),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "X509", package: "swift-certificates")]),
        // The compact JWS parser, the x5c chain and the signature: nothing Entitle's root didn't sign is accepted.
        .executableTarget(
            name: "FuzzVerifier",
            dependencies: [
                "FuzzSupport", .product(name: "AppStoreVerification", package: "Entitle"), .product(name: "AppStoreModels", package: "Entitle"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        // ECDSA P-256 with a key's comb table: the same verdict as swift-crypto's on every input.
        .executableTarget(
            name: "FuzzP256",
            dependencies: [
                "FuzzSupport", .product(name: "P256FixedKey", package: "Entitle"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Apple's payload decoders: notifications, transactions, renewal info, app transactions.
        .executableTarget(
            name: "FuzzDecoders",
            dependencies: ["FuzzSupport", .product(name: "AppStoreModels", package: "Entitle"), .product(name: "FastJSON", package: "Entitle")]),
        // The catalog loader: a `.storekit` file and an `entitlements.json`.
        .executableTarget(name: "FuzzCatalog", dependencies: ["FuzzSupport", .product(name: "EntitleCore", package: "Entitle")]),
        // The ledger's stored events and analytics cells, read without JSONDecoder: the same as JSONDecoder reads, or left to it.
        .executableTarget(
            name: "FuzzStoredEvents",
            dependencies: [
                "FuzzSupport", .product(name: "EntitleStorage", package: "Entitle"), .product(name: "EntitleCore", package: "Entitle"),
                .product(name: "EntitleAnalytics", package: "Entitle"),
            ]),
        // Apple's signed data with fuzzed values through verify, append, fold, resolve, analytics and webhooks.
        .executableTarget(
            name: "FuzzPipeline",
            dependencies: serverTargetDependencies),
        // Every operation of the OpenAPI document with fuzzed values, through the server's router.
        .executableTarget(
            name: "FuzzRequests",
            dependencies: serverTargetDependencies + [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]),
        // The JSON request bodies the server decodes.
        .executableTarget(name: "FuzzRequestBodies", dependencies: ["FuzzSupport", .product(name: "EntitleWire", package: "Entitle")]),
    ]
)
