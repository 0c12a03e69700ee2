import EntitleStorage

extension AppendOutcome {
    /// The outcome as the metrics label it: `appended`, `duplicate` or `refused`.
    var label: String {
        switch self {
        case .appended: "appended"
        case .duplicate: "duplicate"
        case .refused: "refused"
        }
    }
}
