import Foundation
import SwiftASN1
import X509

/// The verification vectors shipped with the tests.
enum VectorFiles {
    static let root = Bundle.module.resourceURL!.appendingPathComponent("Vectors")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func certificate(_ path: String) throws -> Certificate {
        try Certificate(derEncoded: Array(Data(contentsOf: root.appendingPathComponent(path))))
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }
}
