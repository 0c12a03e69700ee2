/// Where an experiment is in its life (docs/growth.md).
public enum ExperimentState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Defined, enrolling nobody yet.
    case draft
    /// Enrolling the subscribers its audience admits, and serving each their variant.
    case running
    /// Enrolling nobody new; those enrolled keep their variant.
    case paused
    /// Over: everyone is served what targeting serves; results stay.
    case stopped
    /// Over, and one variant's offering is served to its whole audience.
    case rolledOut = "rolled_out"

    /// The states an experiment may move to from this one.
    public var next: Set<ExperimentState> {
        switch self {
        case .draft: [.running, .stopped]
        case .running: [.paused, .stopped, .rolledOut]
        case .paused: [.running, .stopped, .rolledOut]
        case .stopped, .rolledOut: []
        }
    }
}
