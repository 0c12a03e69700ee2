import ArgumentParser
import EntitleCLI
import Logging
import OTel
import ServiceLifecycle

/// `entitle` with traces exported over OTLP/HTTP by swift-otel: `entitle-traced serve --otel-endpoint URL`
/// (docs/operations.md, "Traces"). Every other command is `entitle`'s.
@main
enum TracedMain {
    static func main() async {
        TraceOptions.register { endpoint, logger in
            var configuration = OTel.Configuration.default
            configuration.serviceName = "entitle"
            configuration.logs.enabled = false
            configuration.metrics.enabled = false
            configuration.traces.exporter = .otlp
            // Set explicitly, the endpoint is used as given: the traces' path is added here.
            configuration.traces.otlpExporter.endpoint = (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/traces"
            let service = try OTel.bootstrap(configuration: configuration)
            logger.info("traces exported over OTLP/HTTP", metadata: ["otel.endpoint": "\(endpoint)"])
            return service
        }
        await EntitleCommand.main()
    }
}
