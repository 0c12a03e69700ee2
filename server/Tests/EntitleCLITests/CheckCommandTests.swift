import EntitleTestSupport
import Foundation
import Testing

@Suite("CheckCommand")
struct CheckCommandTests {
    @Test("entitle check prints each example's resolved catalog and exits 0", arguments: Fixtures.exampleNames)
    func examples(name: String) async throws {
        let result = try await CommandRunner.entitle.run(["check", "Examples/\(name)"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.hasPrefix("Catalog Examples/\(name) ("))
        #expect(result.standardOutput.contains("\nProducts ("))
        #expect(result.standardOutput.contains("\nEntitlements ("))
    }

    @Test("the report shows limits, quotas, prices, the app trial and savings")
    func reportContents() async throws {
        let epilogue = try await CommandRunner.entitle.run(["check", "Examples/Epilogue"]).standardOutput
        #expect(epilogue.contains("  com.epilogue.plus.annual: Epilogue Plus (Annual); auto-renewable, P1Y, 67.00 USD, group \"Epilogue Subscriptions\" level 1\n"))
        #expect(epilogue.contains("  conversations: per calendar month; free 2, plus unlimited\n"))
        #expect(epilogue.contains("  com.epilogue.plus.annual: 67.00/year vs 7.99/month (95.88/year) saves 30%\n"))

        let screenTime = try await CommandRunner.entitle.run(["check", "Examples/ScreenTimeRewards"]).standardOutput
        #expect(screenTime.contains("    limits: childDevices 5\n"))
        #expect(screenTime.contains("  P30D from first launch granting family, then P7D of warnings granting individual, then lockout\n"))
    }

    @Test("a broken folder prints every problem to standard error and exits 1")
    func broken() async throws {
        let result = try await CommandRunner.entitle.run(["check", "Tests/Fixtures/Catalogs/Broken"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "Tests/Fixtures/Catalogs/Broken: 14 problems")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("error: Tests/Fixtures/Catalogs/Broken/") })
        #expect(lines.contains(
            "error: Tests/Fixtures/Catalogs/Broken/entitlements.json: entitlements.premium.products[0]: catalog.unknownProduct: com.example.premium.montly is not a product of Tests/Fixtures/Catalogs/Broken/Configuration.storekit (did you mean com.example.premium.monthly?)"))
    }

    @Test("usage errors exit 64", arguments: [["check"], ["check", "Tests/Fixtures/no-such-folder"], ["check", "a", "b"], ["frobnicate"]])
    func usage(arguments: [String]) async throws {
        let result = try await CommandRunner.entitle.run(arguments)
        #expect(result.status == 64)
        #expect(!result.standardError.isEmpty)
    }
}
