import AppStoreVerification
import EntitleServer
import EntitleStorage
import HTTPTypes
import Testing

@Suite("HTTPStatusTable")
struct HTTPStatusTableTests {
    static let table: [(ServiceError.Code, Int, Bool)] = [
        (.invalidRequest, 400, false),
        (.invalidAppUserID, 400, false),
        (.unknownFeature, 400, false),
        (.notMetered, 400, false),
        (.missingAPIKey, 401, false),
        (.invalidAPIKey, 401, false),
        (.forbidden, 403, false),
        (.logInTokenRequired, 403, false),
        (.invalidLogInToken, 401, false),
        (.notFound, 404, false),
        (.methodNotAllowed, 405, false),
        (.purchaseOwnedByAnotherSubscriber, 409, false),
        (.quotaExhausted, 409, false),
        (.bodyTooLarge, 413, false),
        (.unsupportedMediaType, 415, false),
        (.appStoreNotConfigured, 409, false),
        (.appStoreNotFound, 404, false),
        (.appStoreUnavailable, 503, true),
        (.appStoreRefused, 502, false),
        (.unknownOffer, 400, false),
        (.offerNotEligible, 403, false),
        (.shuttingDown, 503, true),
        (.internalError, 500, false),
    ]

    @Test("each service code has one status and is final", arguments: table)
    func serviceCodes(code: ServiceError.Code, status: Int, retryable: Bool) {
        #expect(HTTPStatusTable.status(for: code).code == status)
        #expect(code.isRetryable == retryable)
    }

    @Test("a verification failure is the client's (400) unless a retry may succeed (503)", arguments: VerificationError.Code.allCases)
    func verificationCodes(code: VerificationError.Code) {
        let error = ServiceError(VerificationError(code, "refused"))
        #expect(error.code.rawValue == code.rawValue)
        #expect(error.isRetryable == code.isRetryable)
        #expect(HTTPStatusTable.status(for: error.code).code == (code.isRetryable ? 503 : 400))
    }

    @Test(
        "a storage failure is never the client's: 503 when a retry may help, else 500",
        arguments: [StorageError.Code.unavailable, .queryFailed, .corruptRecord, .schemaTooNew, .invalidURL])
    func storageCodes(code: StorageError.Code) {
        let error = ServiceError(StorageError(code, "details that stay in the logs"))
        #expect(error.message == "the ledger is unavailable")
        #expect(error.isRetryable == code.isRetryable)
        #expect(HTTPStatusTable.status(for: error.code).code == (code.isRetryable ? 503 : 500))
    }
}
