/// A command that could not do its work although it was asked correctly: `Error: message` on
/// standard error and exit status 1, without the usage text that usage errors (exit 64) print.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
