import EntitleCore
import EntitleStorage
import EntitleWire
import Hummingbird

extension KeyInfo: @retroactive ResponseEncodable {
    init(_ key: StoredKey) {
        self.init(id: key.id, app: key.app.rawValue, kind: KeyKind(rawValue: key.kind.rawValue), name: key.name, prefix: key.prefix, createdAt: key.createdAt, revokedAt: key.revokedAt)
        scope = key.scope.rawValue
    }
}
