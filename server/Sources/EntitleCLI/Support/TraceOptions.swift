import ArgumentParser
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Traces (docs/operations.md, "Traces"): `--otel-endpoint URL` (or `ENTITLE_OTEL_ENDPOINT`) exports spans
/// over OTLP/HTTP — in `entitle-traced`, the build of `entitle` that links swift-otel and registers its
/// exporter here; `entitle` itself refuses the option with a clear message, and never compiles swift-otel.
/// The OTLP protocol is `http/protobuf` unless `OTEL_EXPORTER_OTLP_PROTOCOL` says `http/json`; swift-otel's
/// other `OTEL_*` variables apply too.
public struct TraceOptions: ParsableArguments {
    /// Makes the exporter for an endpoint, bootstrapping the process's tracer: the service that sends the spans.
    public typealias Exporter = @Sendable (_ endpoint: String, _ logger: Logger) throws -> any Service

    @Option(name: .customLong("otel-endpoint"), help: "Export traces over OTLP/HTTP to this collector (http://host:4318); entitle-traced only.")
    var endpoint: String?

    public init() {}

    private static let exporter = NIOLockedValueBox<Exporter?>(nil)

    /// Called by `entitle-traced` before the command runs.
    public static func register(_ exporter: @escaping Exporter) { self.exporter.withLockedValue { $0 = exporter } }

    private var endpointValue: String? { endpoint ?? ProcessInfo.processInfo.environment["ENTITLE_OTEL_ENDPOINT"] }

    public func validate() throws {
        guard let endpoint = endpointValue else { return }
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--otel-endpoint (or ENTITLE_OTEL_ENDPOINT) is a collector's http(s) address, e.g. http://127.0.0.1:4318")
        }
        guard Self.exporter.withLockedValue({ $0 }) != nil else { throw Self.unavailable }
    }

    static let unavailable = ValidationError(
        "this entitle exports no traces: run entitle-traced (`swift build -c release --product entitle-traced`), the same commands with swift-otel")

    /// Bootstraps the tracer when an endpoint is given: the service that exports the spans (run it beside
    /// the server, which it outlives at shutdown to send the last ones), or `nil`.
    func bootstrap(logger: Logger) throws -> (any Service)? {
        guard let endpoint = endpointValue else { return nil }
        guard let exporter = Self.exporter.withLockedValue({ $0 }) else { throw Self.unavailable }
        return try exporter(endpoint, logger)
    }
}
