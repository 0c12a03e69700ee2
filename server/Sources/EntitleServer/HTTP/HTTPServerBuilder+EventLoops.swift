import HummingbirdCore

extension HTTPServerBuilder {
    /// HTTP/1.1 as `.http1(configuration:)`, each connection's requests handled on its event loop.
    static func http1OnEventLoops(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            EventLoopChildChannel(inner: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}
