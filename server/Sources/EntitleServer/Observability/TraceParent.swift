import Instrumentation
import Tracing

/// The W3C trace context (`traceparent`) as Entitle stores it beside an event and a webhook delivery, so
/// work done later — a delivery from the background publisher — continues the trace of the request that
/// caused it (docs/operations.md, "Traces"). Nothing is recorded while no tracer is bootstrapped.
enum TraceParent {
    /// Whether a tracer other than the no-op one is bootstrapped (`entitle serve --otel-endpoint`).
    static var isTracing: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// The current context's `traceparent`, or `nil` when there is none (no tracer, or no span).
    static func current() -> String? {
        guard isTracing, let context = InstrumentationContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"]
    }

    /// The context `traceParent` names, to start a span under; the top level when it names none.
    static func context(_ traceParent: String?) -> InstrumentationContext {
        var context = InstrumentationContext.topLevel
        guard let traceParent, traceParent.utf8.count <= 128 else { return context }
        InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: DictionaryExtractor())
        return context
    }

    struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
