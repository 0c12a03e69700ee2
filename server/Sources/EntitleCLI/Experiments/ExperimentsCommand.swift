import ArgumentParser
import EntitleAnalytics
import EntitleCore
import EntitleServer
import EntitleWire
import Foundation

/// `entitle experiments list|create|start|pause|stop|rollout|results`: an app's experiments on
/// offerings, in the database a server uses (docs/growth.md).
struct ExperimentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiments", abstract: "Create, start, pause, stop and roll out experiments on offerings, and read their results.",
        subcommands: [List.self, Create.self, Transition.self, RollOut.self, Results.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's experiments and their states.")
        @OptionGroup var options: AppLedgerOptions

        func run() async throws {
            let experiments = try await options.withExperiments { try await $0.experiments() }
            if experiments.isEmpty { print("no experiments") }
            for experiment in experiments {
                let variants = experiment.variants.map { "\($0.id)=\($0.offeringID)×\($0.weight)" }.joined(separator: ", ")
                print("\(experiment.id)  \(experiment.state.rawValue)\(experiment.rolledOutVariantID.map { " (\($0))" } ?? "")  \(variants)")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an experiment, as a draft.",
            discussion: "Variants are ID=OFFERING or ID=OFFERING:WEIGHT, the control first; e.g. --variant control=default --variant b=monthly-first.")
        @OptionGroup var options: AppLedgerOptions
        @Option(help: "The experiment's ID (1 to 100 bytes, no /).") var id: String
        @Option(help: "A name.") var name: String?
        @Option(name: .customLong("variant"), help: "ID=OFFERING[:WEIGHT]; 2 to 5, the control first.") var variants: [String]
        @Option(name: .customLong("audience"), help: "new, trialing, lapsed or active; repeatable (default: everyone).") var audiences: [String] = []
        @Option(name: .customLong("storefront"), help: "An ISO 3166-1 alpha-3 storefront; repeatable (default: any).") var storefronts: [String] = []
        @Option(help: "Days after enrolment whose revenue counts (1 to 365).") var revenueWindowDays = 30

        func parsedVariants() throws -> [ExperimentVariant] {
            try variants.map { text in
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--variant is ID=OFFERING[:WEIGHT], not \(text)") }
                let offering = parts[1].split(separator: ":", maxSplits: 1).map(String.init)
                guard let first = offering.first, !first.isEmpty else { throw ValidationError("--variant \(text) names no offering") }
                var weight = 1
                if offering.count == 2 {
                    guard let parsed = Int(offering[1]), (1...1_000).contains(parsed) else { throw ValidationError("a weight is 1 to 1000, not \(offering[1])") }
                    weight = parsed
                }
                return ExperimentVariant(id: parts[0], offeringID: first, weight: weight)
            }
        }

        func validate() throws {
            _ = try parsedVariants()
            for audience in audiences where Audience(rawValue: audience) == nil {
                throw ValidationError("--audience is one of \(Audience.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() async throws {
            let experiment = Experiment(
                id: id, name: name, variants: try parsedVariants(), audiences: audiences.isEmpty ? nil : audiences.compactMap(Audience.init),
                storefronts: storefronts.isEmpty ? nil : storefronts, revenueWindowDays: revenueWindowDays, createdAt: Date())
            let created = try await options.withExperiments { try await $0.create(experiment) }
            print("created \(created.id) (draft): \(created.variants.map { "\($0.id)=\($0.offeringID)" }.joined(separator: ", "))")
        }
    }

    struct Transition: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Start, pause or stop an experiment: entitle experiments set start|pause|stop ID.")
        @OptionGroup var options: AppLedgerOptions
        @Argument(help: "start, pause or stop") var action: String
        @Argument(help: "The experiment's ID.") var id: String

        func validate() throws {
            guard ["start", "pause", "stop"].contains(action) else { throw ValidationError("the action is start, pause or stop") }
        }

        func run() async throws {
            let state: ExperimentState = action == "start" ? .running : action == "pause" ? .paused : .stopped
            let (id, changed) = (id, try await options.withExperiments { [id] in try await $0.transition(id, to: state) })
            print("\(id) is \(changed.state.rawValue)")
        }
    }

    struct RollOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rollout", abstract: "Roll out one variant: its offering for everyone the experiment admits.")
        @OptionGroup var options: AppLedgerOptions
        @Argument(help: "The experiment's ID.") var id: String
        @Option(help: "The variant to roll out.") var variant: String

        func run() async throws {
            let (id, variant) = (id, variant)
            let changed = try await options.withExperiments { try await $0.transition(id, to: .rolledOut, variantID: variant) }
            print("\(id) is rolled out: \(variant) (offering \(changed.variant(variant)?.offeringID ?? "?")) for everyone it admits")
        }
    }

    struct Results: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An experiment's results per variant, each compared with the control.")
        @OptionGroup var options: AppLedgerOptions
        @Argument(help: "The experiment's ID.") var id: String

        func run() async throws {
            let id = id
            let (experiment, report) = try await options.withExperiments { try await $0.results(id) }
            print("\(experiment.id) (\(experiment.state.rawValue)), revenue over \(experiment.revenueWindowDays) days after enrolment")
            for result in report.variants {
                var line = "  \(result.variantID): \(result.exposed) exposed, \(result.paid) paid (\(Self.percent(result.paidRate))), \(result.trials) trials"
                for currency in report.currencies { line += String(format: ", %.2f \(currency)/exposed", (result.revenuePerExposed[currency] ?? 0) / 1000) }
                print(line)
                if let paid = result.paidComparison {
                    print(String(
                        format: "    paid conversion vs control: %+.2f points [%+.2f, %+.2f], p = %.4f, chance to beat control %.1f%%%@ (%@)",
                        paid.difference * 100, paid.lower * 100, paid.upper * 100, paid.pValue, paid.chanceToBeatControl * 100,
                        paid.sampleNeededPerVariant.map { "; \($0) a variant would find this difference 80% of the time" } ?? "", paid.test))
                }
            }
        }

        static func percent(_ rate: Double?) -> String { rate.map { String(format: "%.1f%%", $0 * 100) } ?? "–" }
    }
}
