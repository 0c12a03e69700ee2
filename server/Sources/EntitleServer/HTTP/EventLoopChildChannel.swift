import EntitleStorage
import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1.1 connections each handled by a task that runs on the connection's own event loop
/// (``EventLoopExecutor``): a request is read, answered and written on one thread, and a PostgreSQL
/// read from it uses that loop's connections (``PostgresLoopLease``) without waking another thread.
/// Routes whose work runs long without suspending leave the loop (``OffEventLoopMiddleware``).
struct EventLoopChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopExecutor(loop: value.channel.eventLoop)) {
            await inner.handle(value: value, logger: logger)
        }
    }
}
