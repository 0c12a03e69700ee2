import ServiceLifecycle

/// Runs `work` every `interval` of `clock`, the first time one interval after every `readiness` opens, until
/// graceful shutdown, which ends a sleep and cancels work under way: `work` stops at its next step and
/// reports being cut short with ``Logging/Logger/passDidNotFinish(_:cutShort:metadata:)``.
func everyInterval(
    _ interval: Duration, clock: any Clock<Duration>, after readiness: [LedgerReadiness] = [], _ work: @escaping @Sendable () async -> Void
) async {
    await cancelWhenGracefulShutdown {
        for gate in readiness { await gate.wait() }
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            await work()
        }
    }
}
