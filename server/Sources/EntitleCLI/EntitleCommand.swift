import ArgumentParser

/// `entitle`: the root command.
public struct EntitleCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "entitle",
        abstract: "A self-hosted subscription platform for App Store apps.",
        subcommands: [ServeCommand.self, DemoCommand.self, CheckCommand.self, VerifyCommand.self, RebuildCommand.self, BackupCommand.self, AnalyticsCommand.self, ExperimentsCommand.self, KeysCommand.self, AccountsCommand.self, WebhooksCommand.self,
            ReconcileCommand.self, LogInTokenCommand.self, ExportCommand.self, ImportCommand.self,
        ])

    public init() {}
}
