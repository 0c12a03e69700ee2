import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport apps use: Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// A request is a data task awaited through a continuation, and cancelling the awaiting task cancels the
/// data task from another thread, after the cancellation returns. `URLSession.data(for:)` cancels it from
/// inside the cancellation, which holds the task's own lock while it waits for the session's queue; on
/// Linux (swift-corelibs-foundation issue 5412) a response delivered on that queue at the same moment
/// waits for the task's lock to resume it, and both wait for ever.
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
        let pending = PendingTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse?), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (data ?? Data(), response))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// The data task of one request, and whether the request was cancelled (perhaps before the task
    /// existed). Cancelling the data task happens on another thread, never inside the cancellation.
    private final class PendingTask: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        /// Resumes `task`, then lets a cancellation reach it (FoundationNetworking stops the process when
        /// a task cancelled before it was resumed is resumed).
        func start(_ task: URLSessionDataTask) {
            task.resume()
            let cancelled = lock.withLock {
                self.task = task
                return self.cancelled
            }
            if cancelled { Self.cancelLater(task) }
        }

        func cancel() {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            if let task { Self.cancelLater(task) }
        }

        private static func cancelLater(_ task: URLSessionDataTask) {
            DispatchQueue.global().async { task.cancel() }
        }
    }
}
