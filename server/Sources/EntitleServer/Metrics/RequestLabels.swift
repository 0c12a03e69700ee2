/// The labels of one `http_server_request_duration_seconds` histogram: a request's method, route
/// template and status.
struct RequestLabels: Hashable, Sendable {
    let method: String
    let route: String
    let status: Int
}
