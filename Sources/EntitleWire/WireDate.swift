import Foundation

/// The API's dates as text: `YYYY-MM-DDTHH:MM:SSZ`, or with an offset (`+HH:MM`, `-HH:MM`), read
/// strictly — every field in its range and the day in its month — where Foundation's ISO 8601 reader
/// would roll `12:99` over into the next hour, or `02-30` into March.
public enum WireDate {
    /// The instant `text` names, or `nil` when it is not a date-time as the API writes them.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 25 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func literal(_ index: Int, _ character: Character) -> Bool { bytes[index] == character.asciiValue }
        guard literal(4, "-"), literal(7, "-"), literal(10, "T"), literal(13, ":"), literal(16, ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard literal(19, "Z") else { return nil }
        } else {
            guard literal(19, "+") || literal(19, "-"), literal(22, ":"), let hours = number(20..<22), let minutes = number(23..<25),
                (0...23).contains(hours), (0...59).contains(minutes)
            else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (literal(19, "-") ? -1 : 1)
        }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // The day must exist in its month: the calendar would roll 02-30 over to 03-02.
        guard let local = calendar.date(from: components), calendar.component(.day, from: local) == day else { return nil }
        return local.addingTimeInterval(TimeInterval(-offset))
    }
}
