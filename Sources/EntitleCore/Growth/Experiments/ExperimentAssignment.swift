/// Which variant of an experiment a subscriber gets: a hash of the experiment's and the subscriber's
/// IDs, so the answer is the same on every server instance, every device logged in as them, and in
/// EntitleKit, with nothing stored until they are served.
public enum ExperimentAssignment {
    /// The number of buckets the hash falls into.
    public static let buckets: UInt64 = 10_000

    /// The bucket (0 to 9,999) of `appUserID` in `experimentID`: FNV-1a over both IDs' UTF-8 with a 0
    /// byte between, then SplitMix64's finaliser, so close IDs fall far apart.
    public static func bucket(experimentID: String, appUserID: AppUserID) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Array(experimentID.utf8) + [0] + Array(appUserID.rawValue.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        return Int(hash % buckets)
    }

    /// The variant `appUserID` gets in `experiment`: the buckets split in the variants' order by weight.
    public static func variant(of experiment: Experiment, for appUserID: AppUserID) -> ExperimentVariant? {
        let total = experiment.variants.reduce(0) { $0 + max($1.weight, 0) }
        guard total > 0 else { return nil }
        let position = bucket(experimentID: experiment.id, appUserID: appUserID) * total / Int(buckets)
        var start = 0
        for variant in experiment.variants {
            start += max(variant.weight, 0)
            if position < start { return variant }
        }
        return experiment.variants.last
    }
}
