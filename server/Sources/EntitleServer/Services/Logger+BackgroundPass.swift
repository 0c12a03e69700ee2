import Logging

extension Logger {
    /// Logs that a background pass (an analytics refresh, a webhook round, a reconciliation) did not
    /// finish: `failure` as a warning, or, when graceful shutdown cut it short (its task is cancelled),
    /// `cutShort` as a notice. Each pass commits its work in steps, so one cut short loses nothing:
    /// the next start goes on from the last step committed.
    func passDidNotFinish(_ failure: Logger.Message, cutShort: Logger.Message, metadata: @autoclosure () -> Logger.Metadata) {
        if Task.isCancelled {
            notice(cutShort, metadata: metadata())
        } else {
            warning(failure, metadata: metadata())
        }
    }
}
