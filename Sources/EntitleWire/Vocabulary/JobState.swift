import Foundation

/// Where an admin job (a reconciliation pass a request started) stands.
public struct JobState: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let running = JobState(rawValue: "running")
    public static let completed = JobState(rawValue: "completed")
    public static let failed = JobState(rawValue: "failed")

    public static let known: [JobState] = [.running, .completed, .failed]
}
