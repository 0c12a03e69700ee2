@testable import EntitleServer
import EntitleWire
import Testing

/// The files `entitle import` reads: RFC 4180 CSV, a plain customers file, and RevenueCat's export.
@Suite("CustomerFile")
struct CustomerFileTests {
    @Test("CSV: quoted fields with commas, doubled quotes and line breaks; CRLF or LF; a byte-order mark; each record's first line")
    func records() {
        let text = "\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\r\n\r\nlast,1"
        let records = CSVReader.records(text)
        #expect(records.map(\.fields) == [["a", "b"], ["x, y", "say \"hi\""], ["two\nlines", "z"], ["last", "1"]])
        #expect(records.map(\.line) == [1, 2, 3, 6])
    }

    @Test("a customers file: rows by line, bad rows reported with their line and why, duplicates once")
    func plain() throws {
        let text = "app_user_id,transaction_id\nalice,1000\n,1001\nbob,\ncarol,10 02\ndave,1003,extra\nalice,1000\neve,2000\n"
        let file = try CustomerFile(text: text, format: .csv)
        #expect(file.rows.map(\.line) == [2, 8])
        #expect(file.rows.map(\.customer) == [ImportCustomer(appUserID: "alice", transactionID: "1000"), ImportCustomer(appUserID: "eve", transactionID: "2000")])
        #expect(file.problems.map(\.line) == [3, 4, 5, 6])
        #expect(file.problems.map(\.message) == ["no app user ID", "no transaction ID", "10 02 is not an App Store transaction ID", "3 fields where the header has 2"])
    }

    @Test("a RevenueCat export: App Store rows, each purchase once (the original transaction), other stores counted as skipped")
    func revenueCat() throws {
        let text = """
            rc_original_app_user_id,rc_last_seen_app_user_id_alias,store,store_transaction_id,original_store_transaction_id
            u1,u1,app_store,1002,1000
            u1,u1,app_store,1001,1000
            u2,u2,play_store,GPA.1,GPA.1
            u3,u3,stripe,sub_1,sub_1
            u4,u4,app_store,2000,
            $RCAnonymousID:5b1f,reader-5,app_store,3000,3000
            $RCAnonymousID:6c2a,$RCAnonymousID:6c2a,app_store,4000,4000
            """
        let file = try CustomerFile(text: text, format: .revenuecat)
        // The app's own ID of each customer: the last seen alias, unless RevenueCat's anonymous one.
        #expect(file.rows.map(\.customer) == [
            ImportCustomer(appUserID: "u1", transactionID: "1000"), ImportCustomer(appUserID: "u4", transactionID: "2000"),
            ImportCustomer(appUserID: "reader-5", transactionID: "3000"), ImportCustomer(appUserID: "$RCAnonymousID:6c2a", transactionID: "4000"),
        ])
        #expect(file.skipped == ["play_store": 1, "stripe": 1])
        #expect(file.problems.isEmpty)
    }

    @Test("a file without the columns it needs is refused whole", arguments: [
        ("", CustomerFile.Format.csv), ("user,transaction_id\n", .csv), ("app_user_id,product\n", .csv), ("app_user_id,transaction_id\n", .revenuecat),
    ])
    func refused(text: String, format: CustomerFile.Format) {
        #expect(throws: ServiceError.self) { _ = try CustomerFile(text: text, format: format) }
    }
}
