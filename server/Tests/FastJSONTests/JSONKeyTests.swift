@testable import FastJSON
import Foundation
import Testing

@testable import AppStoreModels

@Suite("JSONKey")
struct JSONKeyTests {
    /// The keys of `json`'s top object, each with whether it matched `literal` (the values skipped);
    /// `nil` when the cursor didn't read the object.
    static func matches(_ json: String, _ match: (JSONKey) -> Bool) -> [String: Bool]? {
        JSONCursorTests.read(Array(json.utf8)) { cursor in
            var seen: [String: Bool] = [:]
            let read = cursor.object { cursor, key in
                seen[key.string] = match(key)
                return cursor.skipValue()
            }
            return read ? seen : nil
        }
    }

    @Test("a key matches a literal with the same bytes, and no other")
    func literals() {
        let matched = Self.matches(#"{"productId":1,"productI":2,"productIds":3,"ProductId":4,"":5}"#) { $0 == "productId" }
        #expect(matched == ["productId": true, "productI": false, "productIds": false, "ProductId": false, "": false])
    }

    @Test("one-character and empty literals match (a literal of one character is stored without a pointer)")
    func shortLiterals() {
        #expect(Self.matches(#"{"s":1,"c":2}"#) { $0 == "s" } == ["s": true, "c": false])
        #expect(Self.matches(#"{"":1,"a":2}"#) { $0 == "" } == ["": true, "a": false])
    }

    @Test("a key past ASCII matches its literal")
    func unicode() {
        #expect(Self.matches(#"{"clé":1,"cle":2}"#) { $0 == "clé" } == ["clé": true, "cle": false])
    }

    @Test("a key matches byte for byte, not by canonical equivalence as String's == does")
    func canonicalEquivalence() {
        #expect("\u{212A}ey" == "Key")
        let matched = JSONCursorTests.read(Array("{\"\u{212A}ey\":1,\"Key\":2}".utf8)) { cursor in
            var matched: [Bool] = []
            return cursor.object { cursor, key in
                matched.append(key == "Key")
                return cursor.skipValue()
            } ? matched : nil
        }
        #expect(matched == [false, true])
    }

    @Test("a switch matches the key's case")
    func switchCases() {
        let cases = Self.matches(#"{"type":1,"subtype":2,"other":3}"#) { key in
            switch key {
            case "type", "subtype": true
            default: false
            }
        }
        #expect(cases == ["type": true, "subtype": true, "other": false])
    }

    @Test("an object with a key that isn't valid UTF-8 is not read, even where its value is skipped")
    func invalidUTF8() {
        var text = Array(#"{"a":{"xx":1}}"#.utf8)
        text[7] = 0xFF
        #expect(JSONCursorTests.read(text) { cursor in cursor.skipValue() ? true : nil } == nil)
        text[7] = 0xC3
        text[8] = 0xA9
        #expect(JSONCursorTests.read(text) { cursor in cursor.skipValue() ? true : nil } == true)
    }
}
