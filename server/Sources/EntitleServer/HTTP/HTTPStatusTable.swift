import HTTPTypes

/// The one place where service error codes become HTTP statuses.
///
/// A client's mistake is 4xx; a verification failure is 400 (the data is refused) unless it is
/// temporary, then 503 so the App Store retries; a storage failure is never the client's fault
/// (503 when a retry may help, else 500).
public enum HTTPStatusTable {
    static let statuses: [ServiceError.Code: HTTPResponse.Status] = [
        .invalidRequest: .badRequest,
        .bodyTooLarge: .contentTooLarge,
        .notFound: .notFound,
        .methodNotAllowed: .methodNotAllowed,
        .unsupportedMediaType: .unsupportedMediaType,
        .unknownApp: .badRequest,
        .missingAPIKey: .unauthorized,
        .invalidAPIKey: .unauthorized,
        .forbidden: .forbidden,
        .keyOfAnotherApp: .forbidden,
        .logInTokenRequired: .forbidden,
        .invalidLogInToken: .unauthorized,
        .invalidAppUserID: .badRequest,
        .purchaseOwnedByAnotherSubscriber: .conflict,
        .unknownProduct: .badRequest,
        .accountTokenTaken: .conflict,
        .alreadyMerged: .conflict,
        .unknownFeature: .badRequest,
        .unknownLimit: .badRequest,
        .itemNotFound: .notFound,
        .notMetered: .badRequest,
        .invalidPaywallEvent: .badRequest,
        .unknownOffering: .badRequest,
        .experimentNotFound: .notFound,
        .invalidExperiment: .badRequest,
        .experimentExists: .conflict,
        .experimentTransition: .conflict,
        .quotaExhausted: .conflict,
        .appStoreNotConfigured: .conflict,
        .appStoreNotFound: .notFound,
        .appStoreUnavailable: .serviceUnavailable,
        .appStoreRefused: .badGateway,
        .appStoreIneligible: .conflict,
        .unknownOffer: .badRequest,
        .offerNotEligible: .forbidden,
        .signInRefused: .unauthorized,
        .passkeyRefused: .unauthorized,
        .signInLocked: .tooManyRequests,
        .invitationClosed: .notFound,
        .lastOwner: .conflict,
        .busy: .serviceUnavailable,
        .shuttingDown: .serviceUnavailable,
        .internalError: .internalServerError,
    ]

    /// The status the API answers `code` with.
    public static func status(for code: ServiceError.Code) -> HTTPResponse.Status {
        if let status = statuses[code] { return status }
        if code.rawValue.hasPrefix("verification.") { return code.isRetryable ? .serviceUnavailable : .badRequest }
        if code.rawValue.hasPrefix("storage.") { return code.isRetryable ? .serviceUnavailable : .internalServerError }
        return .internalServerError
    }
}
