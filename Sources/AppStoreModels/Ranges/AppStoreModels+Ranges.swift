import Foundation

extension JWSTransactionDecodedPayload {
    /// The first value outside ``AppStoreValueRanges``, if any.
    public var outOfRangeValue: OutOfRangeValue? {
        var check = RangeCheck("transaction")
        check.instant("expiresDate", expiresDate)
        check.instant("originalPurchaseDate", originalPurchaseDate)
        check.instant("purchaseDate", purchaseDate)
        check.instant("revocationDate", revocationDate)
        check.instant("signedDate", signedDate)
        check.amount("price", price)
        check.count("quantity", quantity)
        check.check("revocationPercentage", revocationPercentage.map(Int64.init), in: AppStoreValueRanges.revocationPercentages, what: "thousandths of a percent")
        if let commitment = commitmentInfo {
            check.count("commitmentInfo.billingPeriodNumber", commitment.billingPeriodNumber)
            check.count("commitmentInfo.totalBillingPeriods", commitment.totalBillingPeriods)
            check.instant("commitmentInfo.commitmentExpiresDate", commitment.commitmentExpiresDate)
            check.amount("commitmentInfo.commitmentPrice", commitment.commitmentPrice)
        }
        if let commerce = advancedCommerceInfo {
            check.amount("advancedCommerceInfo.estimatedTax", commerce.estimatedTax)
            check.amount("advancedCommerceInfo.taxExclusivePrice", commerce.taxExclusivePrice)
            for item in commerce.items ?? [] {
                check.amount("advancedCommerceInfo.items.price", item.price)
                check.instant("advancedCommerceInfo.items.revocationDate", item.revocationDate)
                check.amount("advancedCommerceInfo.items.priceIncreaseInfo.price", item.priceIncreaseInfo?.price)
                for refund in item.refunds ?? [] {
                    check.amount("advancedCommerceInfo.items.refunds.refundAmount", refund.refundAmount)
                    check.instant("advancedCommerceInfo.items.refunds.refundDate", refund.refundDate)
                }
            }
        }
        return check.problem
    }
}

extension JWSRenewalInfoDecodedPayload {
    /// The first value outside ``AppStoreValueRanges``, if any.
    public var outOfRangeValue: OutOfRangeValue? {
        var check = RangeCheck("renewalInfo")
        check.instant("gracePeriodExpiresDate", gracePeriodExpiresDate)
        check.instant("recentSubscriptionStartDate", recentSubscriptionStartDate)
        check.instant("renewalDate", renewalDate)
        check.instant("signedDate", signedDate)
        check.amount("renewalPrice", renewalPrice)
        if let commitment = commitmentInfo {
            check.instant("commitmentInfo.commitmentRenewalDate", commitment.commitmentRenewalDate)
            check.amount("commitmentInfo.commitmentRenewalPrice", commitment.commitmentRenewalPrice)
        }
        return check.problem
    }
}

extension ResponseBodyV2DecodedPayload {
    /// The first value outside ``AppStoreValueRanges`` in the notification itself (its nested signed
    /// parts are checked when they are verified), if any.
    public var outOfRangeValue: OutOfRangeValue? {
        var check = RangeCheck("notification")
        check.instant("signedDate", signedDate)
        check.count("summary.succeededCount", summary?.succeededCount)
        check.count("summary.failedCount", summary?.failedCount)
        check.instant("externalPurchaseToken.tokenCreationDate", externalPurchaseToken?.tokenCreationDate)
        check.instant("externalPurchaseToken.tokenExpirationDate", externalPurchaseToken?.tokenExpirationDate)
        return check.problem
    }
}

extension AppTransaction {
    /// The first value outside ``AppStoreValueRanges``, if any.
    public var outOfRangeValue: OutOfRangeValue? {
        var check = RangeCheck("appTransaction")
        check.instant("receiptCreationDate", receiptCreationDate)
        check.instant("originalPurchaseDate", originalPurchaseDate)
        check.instant("preorderDate", preorderDate)
        check.instant("signedDate", signedDate)
        return check.problem
    }
}
