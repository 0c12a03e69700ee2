import EntitleServer
import Foundation
import Testing

/// Passwords hashed with scrypt in PHC form (docs/dashboard.md, "Accounts").
@Suite("PasswordHasher")
struct PasswordHasherTests {
    @Test("a hash checks its password and no other; two hashes of one password differ (salted); the form names the cost")
    func roundTrip() async throws {
        let hasher = PasswordHasher(cost: .testing)
        let one = try await hasher.hash("correct horse battery")
        let two = try await hasher.hash("correct horse battery")
        #expect(one != two)
        #expect(one.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(try await hasher.verify("correct horse battery", against: one))
        #expect(try await hasher.verify("correct horse batterY", against: one) == false)
        #expect(try await hasher.verify("", against: one) == false)
        #expect(!one.contains("correct"))
    }

    @Test("the standard cost is OWASP's (N = 2^17, r = 8, p = 1); a hash of a lower cost is moved at the next sign-in")
    func cost() async throws {
        #expect(PasswordHasher.Cost.standard == PasswordHasher.Cost(logN: 17, blockSize: 8, parallelism: 1))
        let old = try await PasswordHasher(cost: .testing).hash("a password of old")
        let standard = PasswordHasher()
        #expect(standard.needsRehash(old))
        #expect(try await standard.verify("a password of old", against: old), "checked under the cost it names")
        let new = try await standard.hash("a password of old")
        #expect(new.hasPrefix("$scrypt$ln=17,r=8,p=1$") && !standard.needsRehash(new))
    }

    @Test("a stored text that isn't a hash of ours checks nothing, without work or a crash", arguments: [
        "", "plain", "$scrypt$", "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHQ$", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        "$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA", "$scrypt$ln=10,r=99999999999,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$scrypt$ln=10,r=8,p=1,x=2$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA", "$scrypt$ln=-1,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$scrypt$ln=10,r=8,p=1$!!!!$aGFzaGhhc2hoYXNoaGFzaA",
    ])
    func foreign(stored: String) async throws {
        #expect(try await PasswordHasher(cost: .testing).verify("anything", against: stored) == false)
    }
}
