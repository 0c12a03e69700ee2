// A headless app using EntitleKit's public API only, to watch the SDK work anywhere:
//
//   swift run sample-app --server URL --app-key KEY --server-public-key KEY --bundle-id ID
//       [--user ID] [--cache DIR] [--store-account NAME] [--offline] COMMAND
//
// COMMAND: status | purchase PRODUCT_ID | restore | access FEATURE [--usage N] | use QUOTA | trial | login ID | logout
//          | offerings | products PRODUCT_ID… (as the store shows them)
// Each prints one JSON object and exits 0, or prints `error: CODE: message` and exits 1 (CODE: the server's
// code when it refused, else EntitleKit's); `--help` prints this and exits 0. docs/sdk.md lists what each prints.
import EntitleKit
import Foundation

let usageText = """
    sample-app --server URL --app-key KEY --server-public-key KEY --bundle-id ID
        [--user ID] [--cache DIR] [--store-account NAME] [--offline] COMMAND

    COMMAND: status | purchase PRODUCT_ID | restore | access FEATURE [--usage N] | use QUOTA | trial
             | login ID | logout | offerings | products PRODUCT_ID…
    Each prints one JSON object and exits 0, or prints `error: CODE: message` and exits 1.
    """

func fail(_ code: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(code): \(message)\n".utf8))
    exit(1)
}

func printJSON(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { fail("output", "not JSON") }
    print(String(decoding: data, as: UTF8.self))
}

var options: [String: String] = [:]
var flags: Set<String> = []
var words: [String] = []
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "--help" || argument == "-h" {
        print(usageText)
        exit(0)
    } else if argument == "--offline" {
        flags.insert(argument)
    } else if argument.hasPrefix("--") {
        guard !arguments.isEmpty else { fail("usage", "\(argument) needs a value") }
        options[argument] = arguments.removeFirst()
    } else {
        words.append(argument)
    }
}
guard let given = options["--server"].flatMap(URL.init(string:)), let appKey = options["--app-key"],
    let publicKey = options["--server-public-key"], let command = words.first
else {
    fail("usage", usageText)
}
// Offline, as on a plane: every request goes to a loopback port nothing listens on, and fails.
let server = flags.contains("--offline") ? URL(string: "http://127.0.0.1:1")! : given
let bundleID = options["--bundle-id"] ?? ""
let cacheFolder = URL(fileURLWithPath: options["--cache"] ?? "sample-app-cache", isDirectory: true)

/// The store account (the Apple ID) this device is signed in with: `--store-account`, else one of the
/// device's own, kept in its cache folder. Only the account that bought a product restores it.
@MainActor func storeAccount() -> String {
    if let named = options["--store-account"] { return named }
    let file = cacheFolder.appendingPathComponent("store-account")
    if let kept = try? String(contentsOf: file, encoding: .utf8), !kept.isEmpty { return kept }
    let made = "device-" + UUID().uuidString.lowercased()
    try? FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
    try? Data(made.utf8).write(to: file, options: .atomic)
    return made
}

let account = storeAccount()
let store = LocalStore(storeURL: server, bundleID: bundleID, account: account)
let configuration = EntitleConfiguration(
    serverURL: server, apiKey: appKey, serverPublicKey: publicKey, cacheFolder: cacheFolder, app: bundleID.isEmpty ? nil : bundleID,
    store: store)

func info(_ customer: CustomerInfo) -> [String: Any] {
    let now = Date()
    return [
        "appUserID": customer.appUserID, "source": customer.source.rawValue, "ageSeconds": Int(exactly: customer.age.rounded(.down)) ?? 0,
        "activeEntitlements": customer.activeEntitlements(at: now).map(\.id),
        "pendingPurchases": customer.pendingPurchases.map(\.productID),
        "appTrial": trial(customer.appTrial, at: now), "storeAccount": account,
        "reminders": customer.reminders.map { ["kind": $0.kind.rawValue, "dueAt": $0.dueAt.formatted(.iso8601), "daysLeft": $0.daysLeft] },
    ]
}

func trial(_ trial: AppTrial, at now: Date) -> [String: Any] {
    var object: [String: Any] = ["phase": trial.phase.rawValue]
    if let days = trial.daysLeft(at: now) { object["daysLeft"] = days }
    for (key, date) in [("startedAt", trial.startedAt), ("endsAt", trial.endsAt), ("lockoutAt", trial.lockoutAt)] {
        if let date { object[key] = date.formatted(.iso8601) }
    }
    return object
}

do throws(EntitleError) {
    let entitle = try Entitle(configuration: configuration, appUserID: options["--user"])
    switch command {
    case "status":
        printJSON(info(try await entitle.customerInfo(fetchPolicy: .fetchCurrent)))
    case "purchase":
        guard words.count == 2 else { fail("usage", "purchase PRODUCT_ID") }
        let outcome = await entitle.purchase(words[1])
        let customer: CustomerInfo
        switch outcome {
        case .success(let info), .alreadySubscribed(let info): customer = info
        default: fail(outcome.code, outcome.userMessage)
        }
        let owned = { (items: [Subscription]) in
            items.map { ["originalTransactionID": $0.id, "productID": $0.productID, "state": $0.state.rawValue] }
        }
        printJSON([
            "outcome": outcome.code, "customer": info(customer), "subscriptions": owned(customer.subscriptions),
            "purchases": owned(customer.purchases),
        ])
    case "restore":
        let outcome = try await entitle.restore()
        var answer = info(outcome.customerInfo)
        answer["restored"] = outcome.message == nil
        if let message = outcome.message { answer["message"] = message }
        printJSON(answer)
    case "access":
        guard words.count == 2 else { fail("usage", "access FEATURE [--usage N]") }
        guard let usage = Int(options["--usage"] ?? "1") else { fail("usage", "--usage is a whole number from 0 to 1000000") }
        let answer = try await entitle.access(words[1], usage: usage)
        var object: [String: Any] = ["feature": answer.feature, "outcome": answer.outcome.rawValue]
        if let reason = answer.reason { object["reason"] = reason.code }
        if let paywall = answer.paywall { object["paywall"] = paywall.rawValue }
        if let quota = answer.quota { object["used"] = quota.used; object["remaining"] = quota.remaining ?? -1 }
        printJSON(object)
    case "use":
        guard words.count == 2 else { fail("usage", "use QUOTA") }
        switch try await entitle.recordUsage(words[1]) {
        case .counted(let answer):
            printJSON(["feature": words[1], "sent": true, "used": answer.quota?.used ?? 0, "remaining": answer.quota?.remaining ?? -1])
        case .queued(let pending):
            printJSON(["feature": words[1], "sent": false, "queued": pending])
        }
    case "trial":
        printJSON(info(try await entitle.recordFirstLaunch()))
    case "login":
        guard words.count == 2 else { fail("usage", "login ID") }
        printJSON(info(try await entitle.logIn(words[1])))
    case "logout":
        try await entitle.logOut()
        printJSON(["appUserID": await entitle.appUserID])
    case "products":
        guard words.count >= 2 else { fail("usage", "products PRODUCT_ID…") }
        let products: [StoreProduct]
        do {
            products = try await store.products(Array(words.dropFirst()), attempts: 3)
        } catch {
            throw EntitleError(.network, error.message)
        }
        printJSON(["products": products.map { ["productID": $0.id, "displayName": $0.displayName, "displayPrice": $0.displayPrice] }])
    case "offerings":
        let offerings = try await entitle.offerings()
        let current = offerings.current
        var served: [String: Any] = ["servedBy": "", "experimentID": "", "variantID": ""]
        switch offerings.servedBy {
        case .experiment(let id, let variant): served = ["servedBy": "experiment", "experimentID": id, "variantID": variant]
        case .rolledOut: served["servedBy"] = "rolled_out"
        case .targeting: served["servedBy"] = "targeting"
        case .default: served["servedBy"] = "default"
        case .other(let name): served["servedBy"] = name
        case nil: break
        }
        // In the offering's order, the highlighted package marked.
        printJSON(served.merging([
            "currentOfferingID": current?.id ?? "",
            "products": (current?.packages ?? []).map {
                [
                    "productID": $0.id, "price": $0.price.map { "\($0)" } ?? "", "period": $0.period.map(String.init(describing:)) ?? "",
                    "highlighted": $0.id == current?.highlightedPackage?.id ? "yes" : "no",
                    "introductoryOffer": $0.introductoryOffer == nil ? "none" : $0.isEligibleForIntroductoryOffer == false ? "not eligible" : "eligible",
                    "yearlySavings": $0.yearlySavingsLabel ?? "",
                ]
            },
        ]) { $1 })
    default:
        fail("usage", "unknown command \(command)")
    }
} catch {
    fail(error.serverCode ?? error.code.rawValue, error.message)
}
