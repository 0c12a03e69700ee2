import Foundation

/// The demo's output, written as each line is ready (not buffered until the demo ends), so progress
/// and the summary show up in a pipe or a log file while the server keeps running.
enum DemoOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
