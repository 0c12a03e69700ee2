extension Optional {
    /// `map` for an async, throwing transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws(StorageError) -> T) async throws(StorageError) -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
