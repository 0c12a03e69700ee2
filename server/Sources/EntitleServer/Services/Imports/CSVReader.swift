import Foundation

/// RFC 4180 records of a text: fields separated by commas, quoted with `"` (a quote inside doubled), a
/// quoted field may hold commas and line breaks; records end at CRLF or LF. A byte-order mark is skipped.
/// Each record comes with the line it starts on (1-based), for reports.
struct CSVReader {
    static func records(_ text: String) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var characters = text[...]
        if characters.first == "\u{FEFF}" { characters = characters.dropFirst() }
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
            field = ""
            afterQuote = false
        }
        var iterator = characters.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where afterQuote:
                // A doubled quote inside a quoted field.
                field.append("\"")
                quoted = true
                afterQuote = false
            case "\"" where field.isEmpty:
                quoted = true
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(character)
                afterQuote = false
            }
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
