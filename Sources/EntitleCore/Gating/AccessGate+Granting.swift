import Foundation

extension AccessGate {
    /// The gate with `level` granted on top of what it allows (a provisional grant, ``ProvisionalGrant``):
    /// its features, the larger of each limit and quota, each quota's remaining recounted against the
    /// uses already counted. A level that grants nothing leaves the gate as it is.
    public func granting(_ level: AccessLevel) -> AccessGate {
        guard level != .nothing else { return self }
        var gate = self
        gate.access = access.union(level)
        gate.quotas = quotas.map { quota in
            let allowance = max(quota.allowance, level.quota(quota.feature))
            return QuotaStatus(
                feature: quota.feature, window: quota.window, allowance: allowance, used: quota.used,
                remaining: allowance.maximum.map { max(0, $0 - quota.used) }, resetsAt: quota.resetsAt)
        }
        return gate
    }
}
