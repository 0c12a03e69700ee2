import ServiceLifecycle

/// Runs `work` every `interval`, the first time one interval after it starts, until graceful shutdown
/// (a sleep cut short by it ends the loop; work under way finishes).
func everyInterval(_ interval: Duration, _ work: @escaping @Sendable () async -> Void) async {
    await cancelWhenGracefulShutdown {
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
