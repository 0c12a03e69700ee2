// swift-tools-version:6.1
import PackageDescription

/// Entitle's client package: what an app adds by this repository's URL. `EntitleKit` (the SDK) and the
/// modules it is made of — Apple's App Store data types, the core's rules, the HTTP API's wire types and
/// its client — on Foundation and swift-crypto only, so adding it resolves two packages. The server, its
/// storage, the CLI and the local App Store are the package in `server/`, which depends on this one by
/// path (docs/architecture.md).
///
/// `ENTITLE_SANITIZE=1` is set only by scripts/test.sh and scripts/fuzz.sh when they build the server
/// package: this package's code is then compiled with libFuzzer's coverage and AddressSanitizer too.
/// Never set for apps: without it this manifest has no unsafe flag (which SwiftPM refuses in a remote
/// dependency).
let sanitized = Context.environment["ENTITLE_SANITIZE"] == "1"
/// `ENTITLE_TEST_BUILD=1`, set only by scripts/test.sh with `-c release`: this package's modules are
/// compiled unoptimized, their dependencies optimized (server/Package.swift says why). Never set for apps.
let testBuild = Context.environment["ENTITLE_TEST_BUILD"] == "1"
/// Optimized in the test build all the same: the modules the tests spend most in (Apple's data types and
/// base64url; the rules' fold and answers), by a profile of the test binary.
let optimizedInTests: [SwiftSetting] = testBuild ? [.unsafeFlags(["-O"])] : []
/// Every binary links AppStoreModels, so its linker settings are every binary's.
let sanitizedLinking: [LinkerSetting] = sanitized ? [.unsafeFlags(["-sanitize=address", "-Xclang-linker", "-fuse-ld=lld"])] : []

/// Swift 6 language mode (complete concurrency checking) plus the upcoming features the code is written against.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
] + (sanitized ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])
    + (testBuild ? [.unsafeFlags(["-Onone"])] : [])

let package = Package(
    name: "Entitle",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "EntitleKit", targets: ["EntitleKit"]),
        .library(name: "EntitleCore", targets: ["EntitleCore"]),
        .library(name: "EntitleWire", targets: ["EntitleWire"]),
        .library(name: "EntitleAPI", targets: ["EntitleAPI"]),
        .library(name: "AppStoreModels", targets: ["AppStoreModels"]),
        .library(name: "StoreKitMirror", targets: ["StoreKitMirror"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // Apple's App Store data types, named and spelled as Apple names them. Foundation only.
        .target(name: "AppStoreModels", swiftSettings: swiftSettings + optimizedInTests, linkerSettings: sanitizedLinking),
        // The pure domain core: catalog, lifecycle, app-managed trials, entitlements, gating, quotas.
        // Foundation only: no networking, no database, no HTTP.
        .target(name: "EntitleCore", dependencies: ["AppStoreModels"], swiftSettings: swiftSettings + optimizedInTests),
        // The HTTP API's request and response types, shared by the server and the client SDK. Foundation and
        // EntitleCore (an access period carries the core's gate, which the SDK decides with).
        .target(name: "EntitleWire", dependencies: ["EntitleCore"], swiftSettings: swiftSettings),
        // A client of the HTTP API over any transport (URLSession by default), for apps and the
        // local App Store's simulated apps. Foundation, EntitleWire and EntitleCore only.
        .target(name: "EntitleAPI", dependencies: ["EntitleWire", "EntitleCore"], swiftSettings: swiftSettings),
        // StoreKit 2's declarations as Apple documents them, for Linux, where StoreKit does not exist: the
        // adapter (EntitleKit's StoreKitStore) compiles against it here and against StoreKit on Apple
        // platforms, and a backend (the local App Store, in tests) answers its calls. Foundation only;
        // on Apple platforms it is empty.
        .target(name: "StoreKitMirror", dependencies: ["AppStoreModels"], swiftSettings: swiftSettings),
        // The SDK apps link: customer info from the server or a signed cache, log-in, usage that waits
        // for the network, access decided by the core's rules, StoreKit 2 purchases. Foundation
        // networking, Entitle's wire modules, EntitleCore and swift-crypto (CryptoKit on Apple platforms).
        .target(
            name: "EntitleKit",
            dependencies: [
                "EntitleWire", "EntitleAPI", "EntitleCore", "AppStoreModels",
                .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "StoreKitMirror", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
