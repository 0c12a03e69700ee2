import ServiceLifecycle

/// Runs `work` every `interval`, the first time one interval after every `readiness` opens, until
/// graceful shutdown (a sleep cut short by it ends the loop; work under way finishes).
func everyInterval(_ interval: Duration, after readiness: [LedgerReadiness] = [], _ work: @escaping @Sendable () async -> Void) async {
    await cancelWhenGracefulShutdown {
        for gate in readiness { await gate.wait() }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await work()
        }
    }
}
