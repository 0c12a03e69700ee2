import Logging

/// The request a task serves, for its log lines: ``RequestIDMiddleware`` sets it for the request's task,
/// and the ``metadataProvider`` (installed with the logging system) adds it to every line logged there —
/// a service's, the storage's, the verifier's — as `request.id`.
public enum RequestLog {
    /// The ID of the request the current task serves.
    @TaskLocal public static var requestID: String?

    /// `request.id` for every line logged while a request is served.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let requestID else { return [:] }
        return ["request.id": .string(requestID)]
    }
}
