import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body doesn't arrive in full within `timeout` of its head. The
/// idle timeout resets on every chunk, so a client trickling a byte a minute would hold a connection
/// (and a request's memory) for as long as it liked; this bounds the whole body. (A head that never
/// completes is bounded by the idle timeout: no part of the request reaches the server until it does.)
final class RequestBodyTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                loopBound.value.close(promise: nil)
            }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
