import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import Logging
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

extension AppStoreServerAPIRoutesTests {
    /// Customers who bought before the app used Entitle: Apple knows their purchases (the local App Store
    /// Server API's history), Entitle has never heard of them.
    static func strangers(_ count: Int, _ setup: Setup, _ store: inout StoreSimulator) throws -> [(appUserID: String, purchase: StorePurchase)] {
        try (0..<count).map { index in
            let purchase = try store.purchase(monthly, at: setup.harness.clock.now.addingTimeInterval(Double(index)))
            lose(purchase.notifications, setup)
            return ("reader-\(index)", purchase)
        }
    }

    @Test("import: each customer's history asked of Apple, verified and recorded under their app user ID, without webhooks; again, nothing twice")
    func importCustomers() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let service = harness.service()
            try await service.webhooks.webhookStore.addEndpoint(
                WebhookDeliveryTests.endpoint(URL(string: "http://127.0.0.1:9/hooks")!, app: Self.bundleID, at: harness.clock.now))
            let customers = try Self.strangers(12, setup, &store)
            // A renewal Apple signed since, that never reached Entitle either.
            Self.lose(try store.renew(customers[0].purchase.originalTransactionID), setup)
            // reader-11 restores onto the app already: their purchase is theirs here.
            try await harness.post(client, "/v1/subscribers/reader-11/transactions", key: setup.secret,
                                   body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: customers[11].purchase.signedTransaction)))
            var request = customers.map { ImportCustomer(appUserID: $0.appUserID, transactionID: $0.purchase.originalTransactionID) }
            request.append(ImportCustomer(appUserID: "someone-else", transactionID: customers[11].purchase.originalTransactionID))
            request.append(ImportCustomer(appUserID: "ghost", transactionID: "999999"))
            request.append(ImportCustomer(appUserID: "", transactionID: "1"))
            // In requests of a few customers, as `entitle import` sends them (each asks Apple several times).
            func importing(_ customers: [ImportCustomer]) async throws -> [ImportResult] {
                var results: [ImportResult] = []
                for start in stride(from: 0, to: customers.count, by: 3) {
                    let batch = ImportCustomersRequest(customers: Array(customers[start..<min(start + 3, customers.count)]))
                    results += try ServerHarness.decode(
                        ImportCustomersResponse.self, try await harness.post(client, "/v1/imports/customers", key: setup.secret, body: ServerHarness.json(batch))).results
                }
                return results
            }
            let first = ImportCustomersResponse(results: try await importing(request))
            #expect(first.results.map(\.outcome) == Array(repeating: "imported", count: 12) + ["owned_by_another", "not_found", "invalid"])
            #expect(first.results[0].transactions == 2 && first.results[1].transactions == 1)
            for (appUserID, _) in customers {
                #expect(try await harness.subscriber(client, appUserID).entitlements.contains { $0.isActive }, "\(appUserID)")
            }
            let timeline = try ServerHarness.decode(
                [TimelineEvent].self, try await harness.get(client, "/v1/subscribers/reader-0/events", key: setup.secret))
            #expect(timeline.filter { $0.source == "import" }.count == 3, "two transactions and the renewal info")
            let events = try await harness.store.eventCount()

            // Run again: the same answers, nothing recorded twice.
            let again = ImportCustomersResponse(results: try await importing(request))
            #expect(again.results.map(\.outcome) == first.results.map(\.outcome))
            #expect(try await harness.store.eventCount() == events)

            // Imported history is the baseline: no webhook for it; the next change is told.
            harness.clock.set(harness.clock.now.addingTimeInterval(60))
            _ = try await service.webhooks.publishWebhooks(holder: "test")
            #expect(try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: "reader-3", status: nil, limit: 10).isEmpty)
            try await harness.deliver(client, try store.setAutoRenew(customers[3].purchase.originalTransactionID, false, at: harness.clock.now))
            _ = try await service.webhooks.publishWebhooks(holder: "test")
            #expect(try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: "reader-3", status: nil, limit: 10).map(\.eventType).contains("auto_renew_disabled"))

            // Too many in one request, or none: refused whole.
            let many = ImportCustomersRequest(customers: Array(repeating: ImportCustomer(appUserID: "x", transactionID: "1"), count: 101))
            let refused = try await harness.post(client, "/v1/imports/customers", key: setup.secret, body: ServerHarness.json(many), expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "request.invalid")
        }
    }

    @Test("entitle import: a CSV and a RevenueCat export as jobs of the running server; a bad row reported by its line; run again, it joins the job")
    func importCommand() async throws {
        try await Self.run { setup, _, store in
            let customers = try Self.strangers(30, setup, &store)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let port = try #require(setup.port)
            let server = ["--server", "http://127.0.0.1:\(port)", "--secret-key", setup.secret]

            // A plain CSV, its 4th line malformed: reported, the others imported.
            var csv = "app_user_id,transaction_id\r\n"
            for (index, customer) in customers.prefix(20).enumerated() {
                csv += index == 2 ? "broken,\(customer.purchase.originalTransactionID),extra\r\n" : "\(customer.appUserID),\(customer.purchase.originalTransactionID)\r\n"
            }
            let file = folder.appendingPathComponent("customers.csv").path
            try csv.write(toFile: file, atomically: true, encoding: .utf8)
            // Started and left (the job goes on on the server), then run again: it joins the job, or once that is
            // done starts another, which records nothing twice; either way it follows it to the end.
            let detached = try await CommandRunner.entitle.run(["import", file, "--detach"] + server)
            #expect(detached.status == 0, "\(detached.standardError)")
            #expect(detached.standardOutput.contains("customers"), "\(detached.standardOutput)")
            let run = try await CommandRunner.entitle.run(["import", file] + server)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("imported 19 customers"), "\(run.standardOutput)")
            #expect(run.standardError.contains("line 4: 3 fields where the header has 2"), "\(run.standardError)")
            for customer in customers.prefix(20) where customer.appUserID != "reader-2" {
                #expect(try await setup.harness.store.projection(appUserID: AppUserID(customer.appUserID)) != nil, "\(customer.appUserID)")
            }

            // A RevenueCat export: App Store rows (one per transaction; a purchase once), a Play Store row skipped.
            var export = TransactionExportRow.CodingKeys.allCases.map(\.rawValue).joined(separator: ",") + "\n"
            for customer in customers.suffix(10) {
                let id = customer.purchase.originalTransactionID
                for _ in 0..<2 {
                    export += ([customer.appUserID, customer.appUserID, "USA", Self.monthly, "2026-01-01T00:00:00Z", "", "app_store", "true", "false", "false", "true",
                                "", id, id] + Array(repeating: "", count: 11)).joined(separator: ",") + "\n"
                }
            }
            export += (["android-1", "android-1", "USA", "plus", "2026-01-01T00:00:00Z", "", "play_store", "true", "false", "false", "true", "", "GPA.1", "GPA.1"]
                + Array(repeating: "", count: 11)).joined(separator: ",") + "\n"
            let rc = folder.appendingPathComponent("revenuecat.csv").path
            try export.write(toFile: rc, atomically: true, encoding: .utf8)
            let imported = try await CommandRunner.entitle.run(["import", rc, "--format", "revenuecat"] + server)
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(imported.standardOutput.contains("imported 10 customers (10 transactions from Apple)"), "\(imported.standardOutput)")
            #expect(imported.standardOutput.contains("skipped (other stores) play_store 1"))
        }
    }
}

extension AppStoreServerAPIRoutesTests {
    @Test("import by app receipt: its transaction IDs read, the first Apple knows asked for the history; another app's receipt refused by code")
    func importReceipts() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let customers = try Self.strangers(2, setup, &store)
            func receipt(_ ids: [String], bundleID: String = Self.bundleID) throws -> String {
                try LocalAppReceipt.base64(bundleID: bundleID, purchases: ids.map { (transactionID: $0, originalTransactionID: $0) })
            }
            let request = ImportCustomersRequest(customers: [
                ImportCustomer(appUserID: "kept-receipts-0", receipt: try receipt([customers[0].purchase.originalTransactionID])),
                // An ID Apple doesn't know first (a consumable long finished): the next one is asked.
                ImportCustomer(appUserID: "kept-receipts-1", receipt: try receipt(["888888", customers[1].purchase.originalTransactionID])),
                ImportCustomer(appUserID: "kept-receipts-2", receipt: try receipt(["777777"])),
                ImportCustomer(appUserID: "kept-receipts-3", receipt: try receipt([customers[0].purchase.originalTransactionID], bundleID: "com.other.app")),
                ImportCustomer(appUserID: "kept-receipts-4", receipt: "bm90IGEgcmVjZWlwdA=="),
                ImportCustomer(appUserID: "kept-receipts-5", transactionID: "1", receipt: try receipt(["1"])),
            ])
            let results = try ServerHarness.decode(
                ImportCustomersResponse.self, try await harness.post(client, "/v1/imports/customers", key: setup.secret, body: ServerHarness.json(request))).results
            #expect(results.map(\.outcome) == ["imported", "imported", "not_found", "invalid", "invalid", "invalid"])
            #expect(results[1].transactionID == customers[1].purchase.originalTransactionID)
            #expect(results[3].message?.contains("receipt.otherApp") == true && results[4].message?.contains("receipt.malformed") == true)
            for user in ["kept-receipts-0", "kept-receipts-1"] {
                #expect(try await harness.subscriber(client, user).entitlements.contains { $0.isActive }, "\(user)")
            }
        }
    }
}

extension AppStoreServerAPIRoutesTests {
    @Test("an import job: started once, a bad row reported by line, carried on a batch at a time; another instance takes it over once the lease lapses; again, nothing twice")
    func importJob() async throws {
        try await Self.run(importInterval: nil) { setup, client, store in
            let harness = setup.harness
            let customers = try Self.strangers(25, setup, &store)
            var csv = "app_user_id,transaction_id\n"
            for (index, customer) in customers.enumerated() {
                csv += "\(customer.appUserID),\(customer.purchase.originalTransactionID)\n"
                if index == 1 { csv += "broken,row,extra\n" }
            }
            let request = ServerHarness.json(ImportJobRequest(format: "csv", file: csv))
            let started = try ServerHarness.decode(
                ImportJobResponse.self, try await harness.post(client, "/v1/imports/jobs", key: setup.secret, body: request, expect: .accepted))
            #expect(started.state == "running" && started.customers == 25 && started.done == 0)
            #expect(started.problems == [ImportProblem(line: 4, message: "3 fields where the header has 2")] && started.problemCount == 1)
            // The same file again joins the running job.
            let joined = try ServerHarness.decode(ImportJobResponse.self, try await harness.post(client, "/v1/imports/jobs", key: setup.secret, body: request))
            #expect(joined.id == started.id)

            // One instance imports a batch, then stops (a restart): its lease keeps the job from the other a while.
            func instance() -> AppServices {
                let verifier = SignedDataVerifier(
                    configuration: VerifierConfiguration(bundleID: Self.bundleID, environment: .sandbox, rootCertificates: [harness.authority.root]),
                    now: harness.clock.reading)
                return AppServices(
                    store: harness.store, catalog: harness.catalog, verifiers: [verifier], now: harness.clock.reading,
                    logger: Logger(label: "entitle.tests.import"), serverAPI: setup.serverAPI)
            }
            #expect(try await instance().appStore.runImportJobs(holder: "first", maximumBatches: 1) == AppStoreSyncService.importBatchSize)
            let halfway = try ServerHarness.decode(ImportJobResponse.self, try await harness.get(client, "/v1/imports/jobs/\(started.id)", key: setup.secret))
            #expect(halfway.state == "running" && halfway.done == AppStoreSyncService.importBatchSize)
            #expect(try await instance().appStore.runImportJobs(holder: "second") == 0, "the first instance's lease")
            harness.clock.set(harness.clock.now.addingTimeInterval(AppStoreSyncService.importLease + 1))
            #expect(try await instance().appStore.runImportJobs(holder: "second") == 25 - AppStoreSyncService.importBatchSize)
            let done = try ServerHarness.decode(ImportJobResponse.self, try await harness.get(client, "/v1/imports/jobs/\(started.id)", key: setup.secret))
            #expect(done.state == "completed" && done.done == 25 && done.outcomes == ["imported": 25] && done.finishedAt != nil)
            for (appUserID, _) in customers {
                #expect(try await harness.subscriber(client, appUserID).entitlements.contains { $0.isActive }, "\(appUserID)")
            }
            let events = try await harness.store.eventCount()

            // Started again once done: a new job, which records nothing twice.
            let again = try ServerHarness.decode(
                ImportJobResponse.self, try await harness.post(client, "/v1/imports/jobs", key: setup.secret, body: request, expect: .accepted))
            #expect(again.id != started.id)
            try await instance().appStore.runImportJobs(holder: "third")
            #expect(try await harness.store.eventCount() == events)

            // With webhooks: recorded as the App Store Server API's, as if it had just happened.
            let late = try Self.strangers(1, setup, &store)[0]
            let withWebhooks = ImportJobRequest(format: "csv", file: "app_user_id,transaction_id\nlate-1,\(late.purchase.originalTransactionID)\n", webhooks: true)
            _ = try await harness.post(client, "/v1/imports/jobs", key: setup.secret, body: ServerHarness.json(withWebhooks), expect: .accepted)
            try await instance().appStore.runImportJobs(holder: "third")
            let timeline = try ServerHarness.decode([TimelineEvent].self, try await harness.get(client, "/v1/subscribers/late-1/events", key: setup.secret))
            #expect(timeline.filter { $0.kind == "transaction" || $0.kind == "renewal_info" }.map(\.source) == ["app_store_server_api", "app_store_server_api"])

            // A file without the columns it needs, an unknown format, an unknown job: refused.
            let refused = try await harness.post(
                client, "/v1/imports/jobs", key: setup.secret, body: ServerHarness.json(ImportJobRequest(format: "csv", file: "user,id\n")), expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "request.invalid")
            _ = try await harness.post(
                client, "/v1/imports/jobs", key: setup.secret, body: ServerHarness.json(ImportJobRequest(format: "xml", file: csv)), expect: .badRequest)
            _ = try await harness.get(client, "/v1/imports/jobs/imp_unknown", key: setup.secret, expect: .notFound)
        }
    }
}
