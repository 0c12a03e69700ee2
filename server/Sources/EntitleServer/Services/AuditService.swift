import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// The audit log of operators' changes (docs/operations.md, "Audit log"): recorded by ``AuditMiddleware``,
/// read through `GET /v1/audit-log`.
public struct AuditService: AppService {
    let context: AppContext
    let log: any AuditLog

    init(context: AppContext, log: any AuditLog) {
        self.context = context
        self.log = log
    }

    /// Records one change, made already: an entry that can't be written is logged as an error (with the
    /// request's ID, which the logs carry), and the caller still gets the change's answer — failing it would
    /// invite a retry of a change that was made.
    func record(
        actor: String, action: String, subject: String?, body: Data?, status: Int, requestID: String?, before: String? = nil, after: String? = nil
    ) async {
        let entry = AuditEntry(
            at: now(), actor: actor, action: action, subject: subject, request: body.map(Self.redacted), status: status, requestID: requestID,
            before: before, after: after)
        do {
            try await log.append(entry)
        } catch {
            logger.error("an audit entry was not recorded", metadata: ["audit.action": "\(action)", "audit.actor": "\(actor)", "error.code": "\(error.code)"])
        }
    }

    /// The entries, newest first, before `sequence` when given.
    public func entries(before sequence: Int64?, limit: Int) async throws(ServiceError) -> AuditLogResponse {
        guard (1...1_000).contains(limit) else { throw ServiceError(.invalidRequest, "limit is 1 to 1000") }
        let entries: [AuditEntry]
        do {
            entries = try await log.entries(before: sequence, limit: limit)
        } catch {
            throw ServiceError(error)
        }
        return AuditLogResponse(
            entries: entries.map {
                AuditEntryInfo(
                    sequence: $0.sequence, at: $0.at, actor: $0.actor, action: $0.action, subject: $0.subject, request: $0.request, status: $0.status,
                    requestID: $0.requestID, before: $0.before, after: $0.after)
            },
            next: entries.count == limit ? entries.last?.sequence : nil)
    }

    /// Names whose values are never kept: keys, secrets, tokens, signed data, passwords, an import's file.
    static let secretNames = ["secret", "key", "token", "password", "signed", "file", "receipt"]

    /// The body as kept: JSON with every secret's value replaced (`"[redacted]"`), keys sorted, at most
    /// ``AuditEntry/largestRequest`` bytes; a body that isn't JSON is described, not kept.
    static func redacted(_ body: Data) -> String {
        guard let value = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) ?? form(body) else {
            return "(\(body.count) bytes, not JSON)"
        }
        let cleaned = redact(value)
        guard let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "(\(body.count) bytes)" }
        let text = String(decoding: data, as: UTF8.self)
        return text.utf8.count <= AuditEntry.largestRequest ? text : String(decoding: Array(text.utf8.prefix(AuditEntry.largestRequest)), as: UTF8.self) + "…"
    }

    /// A dashboard form's fields (`application/x-www-form-urlencoded`), or `nil` when the body isn't one.
    static func form(_ body: Data) -> [String: Any]? {
        guard let text = String(data: body, encoding: .utf8), !text.isEmpty, text.contains("=") else { return nil }
        var fields: [String: Any] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            guard let name = parts.first, !name.isEmpty else { return nil }
            fields[name] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    private static func redact(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var cleaned: [String: Any] = [:]
            for (name, inner) in object {
                let lower = name.lowercased()
                cleaned[name] = secretNames.contains { lower.contains($0) } ? "[redacted]" : redact(inner)
            }
            return cleaned
        }
        if let array = value as? [Any] { return array.map(redact) }
        return value
    }
}
