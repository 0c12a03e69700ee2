import Foundation

/// Prints `line` at once, unbuffered (a benchmark's output piped to a file shows its progress).
public func say(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
