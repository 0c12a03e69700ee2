import Foundation

/// Reads an app's `.storekit` file and entitlements file, validates both, and resolves them into a
/// ``Catalog``.
///
/// Reading files is the only I/O here. Validation collects every problem before throwing a
/// ``CatalogValidationError``, each with its file, its JSON path, what is wrong and what would be valid.
public struct CatalogLoader: Sendable {
    /// The name of the entitlements file inside an app folder.
    public static let entitlementsFileName = "entitlements.json"

    /// Recurring periods the App Store offers for auto-renewable subscriptions.
    public static let subscriptionPeriods: [ISODuration] = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].compactMap(ISODuration.init)

    public init() {}

    /// Loads the catalog of an app folder: its `entitlements.json` and the `.storekit` file it names
    /// (or the only one in the folder).
    public func load(directory: URL) throws(CatalogValidationError) -> Catalog {
        let entitlementsURL = directory.appendingPathComponent(Self.entitlementsFileName)
        let document = try decodeEntitlements(at: entitlementsURL)
        let storeKitURL: URL
        if let named = document.storeKit {
            storeKitURL = named.hasPrefix("/") ? URL(fileURLWithPath: named) : directory.appendingPathComponent(named)
        } else {
            let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
                .filter { $0.hasSuffix(".storekit") }.sorted()
            guard candidates.count == 1 else {
                throw CatalogValidationError(errors: [
                    CatalogError(
                        .storeKitFileNotFound, file: entitlementsURL.relativePath, path: "storeKit",
                        message: candidates.isEmpty
                            ? "the folder \(directory.relativePath) holds no .storekit file"
                            : "the folder holds \(candidates.count) .storekit files (\(candidates.joined(separator: ", ")))",
                        hint: "name the .storekit file with \"storeKit\": \"Configuration.storekit\"")
                ])
            }
            storeKitURL = directory.appendingPathComponent(candidates[0])
        }
        return try load(storeKitFile: storeKitURL, entitlementsDocument: document, entitlementsFile: entitlementsURL)
    }

    /// Loads a catalog from an explicit `.storekit` file and entitlements file.
    public func load(storeKitFile: URL, entitlementsFile: URL) throws(CatalogValidationError) -> Catalog {
        let document = try decodeEntitlements(at: entitlementsFile)
        return try load(storeKitFile: storeKitFile, entitlementsDocument: document, entitlementsFile: entitlementsFile)
    }

    /// Resolves already-read file contents; `storeKitName` and `entitlementsName` are used in errors.
    public func load(storeKit: Data, storeKitName: String, entitlements: Data, entitlementsName: String) throws(CatalogValidationError) -> Catalog {
        let document: EntitlementsDocument = try decode(entitlements, file: entitlementsName)
        let configuration: StoreKitConfiguration = try decode(storeKit, file: storeKitName)
        var resolver = CatalogResolver(
            configuration: configuration, storeKitFile: storeKitName, document: document, entitlementsFile: entitlementsName)
        return try resolver.resolve()
    }

    private func load(storeKitFile: URL, entitlementsDocument: EntitlementsDocument, entitlementsFile: URL) throws(CatalogValidationError) -> Catalog {
        let storeKitName = storeKitFile.relativePath
        let data = try read(storeKitFile)
        let configuration: StoreKitConfiguration = try decode(data, file: storeKitName)
        var resolver = CatalogResolver(
            configuration: configuration, storeKitFile: storeKitName, document: entitlementsDocument,
            entitlementsFile: entitlementsFile.relativePath)
        return try resolver.resolve()
    }

    private func decodeEntitlements(at url: URL) throws(CatalogValidationError) -> EntitlementsDocument {
        try decode(try read(url), file: url.relativePath)
    }

    private func read(_ url: URL) throws(CatalogValidationError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CatalogValidationError(errors: [
                CatalogError(.unreadableFile, file: url.relativePath, path: "", message: "cannot read the file: \(Self.reason(of: error))")
            ])
        }
    }

    private static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        return nsError.localizedDescription
    }

    func decode<T: Decodable>(_ data: Data, file: String) throws(CatalogValidationError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw CatalogValidationError(errors: [Self.catalogError(from: error, data: data, file: file)])
        } catch {
            throw CatalogValidationError(errors: [
                CatalogError(.malformedJSON, file: file, path: "", message: "the file is not valid JSON")
            ])
        }
    }

    /// Where JSON syntax breaks, as `line L, column C`, found by re-parsing with JSONSerialization
    /// (JSONDecoder doesn't say where).
    static func syntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            guard let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(detail[range].dropFirst("character ".count))
            else { return detail }
            let prefix = data.prefix(offset)
            let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            let what = detail.components(separatedBy: " around").first ?? detail
            return "\(what.lowercased()) at line \(line), column \(column)"
        }
    }

    static func catalogError(from error: DecodingError, data: Data, file: String) -> CatalogError {
        switch error {
        case .typeMismatch(let type, let context):
            let path = JSONPath(codingPath: context.codingPath)
            return CatalogError(
                .invalidType, file: file, path: path.description,
                message: "expected \(jsonTypeName(type))", hint: context.debugDescription)
        case .valueNotFound(let type, let context):
            let path = JSONPath(codingPath: context.codingPath)
            return CatalogError(
                .invalidType, file: file, path: path.description, message: "expected \(jsonTypeName(type)) but found null")
        case .keyNotFound(let key, let context):
            let path = JSONPath(codingPath: context.codingPath).key(key.stringValue)
            return CatalogError(.missingKey, file: file, path: path.description, message: "the required key \"\(key.stringValue)\" is missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return CatalogError(.malformedJSON, file: file, path: "", message: "the file is not valid JSON", hint: syntaxProblem(in: data))
            }
            return CatalogError(
                .invalidValue, file: file, path: JSONPath(codingPath: context.codingPath).description,
                message: context.debugDescription)
        @unknown default:
            return CatalogError(.malformedJSON, file: file, path: "", message: "the file could not be decoded")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int32.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default:
            String(describing: type).hasPrefix("Array") ? "an array"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : "an object"
        }
    }
}
