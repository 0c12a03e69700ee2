import ArgumentParser
import EntitleCLI

@main
enum EntitleMain {
    static func main() async {
        await EntitleCommand.main()
    }
}
