import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport apps use: Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// A request is a data task awaited through a continuation. Cancelling the awaiting task ends the wait
/// at once with a `CancellationError` (from another thread) and leaves the data task to finish or time
/// out on its own, its answer dropped: the data task itself is never cancelled. On Linux, cancelling one
/// races with its completion inside FoundationNetworking: `URLSession.data(for:)` cancels it while holding
/// the awaiting task's lock and deadlocks with an answer delivered at that moment (swift-corelibs-foundation
/// issue 5412), and a cancellation that reaches a task just completed stops the process.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse {
        guard let url = URL(string: request.url(on: baseURL)) else {
            throw APIClientError(.invalidRequest, "\(request.path) is not a path on \(baseURL)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: Double(timeout.components.seconds))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        do {
            let (data, response) = try await data(for: urlRequest)
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return APIResponse(status: http?.statusCode ?? 0, body: data, headers: headers)
        } catch {
            throw APIClientError(.network, "\(request.method) \(request.path) failed: \(error.localizedDescription)", underlying: error)
        }
    }

    private func data(for request: URLRequest) async throws -> (Data, URLResponse?) {
        let pending = PendingRequest()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse?), any Error>) in
                guard pending.wait(continuation) else { return }
                session.dataTask(with: request) { data, response, error in
                    pending.finish(error.map { .failure($0) } ?? .success((data ?? Data(), response)))
                }.resume()
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// The wait for one request's answer: the answer or a cancellation ends it, whichever comes first.
    private final class PendingRequest: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Data, URLResponse?), any Error>?
        private var cancelled = false

        /// Keeps `continuation` until the answer or a cancellation; `false` (and the wait ended) when the
        /// request was cancelled already, so it isn't sent.
        func wait(_ continuation: CheckedContinuation<(Data, URLResponse?), any Error>) -> Bool {
            let cancelled = lock.withLock {
                if !self.cancelled { self.continuation = continuation }
                return self.cancelled
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        func finish(_ result: Result<(Data, URLResponse?), any Error>) {
            lock.withLock { () -> CheckedContinuation<(Data, URLResponse?), any Error>? in
                defer { continuation = nil }
                return continuation
            }?.resume(with: result)
        }

        /// Called inside the awaiting task's cancellation: the wait ends from another thread.
        func cancel() {
            let continuation = lock.withLock { () -> CheckedContinuation<(Data, URLResponse?), any Error>? in
                cancelled = true
                defer { self.continuation = nil }
                return self.continuation
            }
            if let continuation { DispatchQueue.global().async { continuation.resume(throwing: CancellationError()) } }
        }
    }
}
