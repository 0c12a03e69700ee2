import ArgumentParser
import EntitleCore
import Foundation

/// `entitle check DIR`: validates an app folder's `.storekit` and entitlements files and prints the
/// resolved catalog, or every problem found.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate an app's catalog and print it resolved.",
        discussion: """
            DIR holds entitlements.json and the .storekit file it names (or the only one in DIR).
            Exits 0 and prints the catalog, or exits 1 and prints every problem with its file,
            JSON path, what is wrong and what would be valid.
            """)

    @Argument(help: "The app folder.", completion: .directory)
    var directory: String

    func run() throws {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(directory) is not a folder")
        }
        do {
            let catalog = try CatalogLoader().load(directory: url)
            print(CatalogReport(catalog: catalog, source: directory).text, terminator: "")
        } catch {
            var standardError = FileHandle.standardError
            print("\(directory): \(error.errors.count) problem\(error.errors.count == 1 ? "" : "s")", to: &standardError)
            for problem in error.errors {
                print("error: \(problem)", to: &standardError)
            }
            throw ExitCode.failure
        }
    }
}

extension FileHandle: @retroactive TextOutputStream {
    public func write(_ string: String) {
        write(Data(string.utf8))
    }
}
