import Foundation

/// Runs async work to completion from libFuzzer's synchronous callback (its thread is not one of the
/// concurrency pool's, so waiting on it is safe).
public func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        box.value = await work()
        semaphore.signal()
    }
    semaphore.wait()
    return box.value!
}

final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// The server package's root (`server/`, where `Fuzz/Sources/FuzzSupport` sits).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
/// The repository's root (the client package, with `docs/`), one level above the server package.
public let repositoryRoot = packageRoot.deletingLastPathComponent()

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Hands the process to libFuzzer with `callback` as the target: SwiftPM gives an executable its own
/// `main`, so the target's `main.swift` calls libFuzzer's documented entry for that case.
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}
