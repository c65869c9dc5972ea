import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_795_867_200_250, "2026-11-28T12:00:00.250Z"),
        (951_782_400_001, "2000-02-29T00:00:00.001Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func formatsISO8601WithMilliseconds(_ milliseconds: Int64, _ text: String) {
        #expect(Timestamp(millisecondsSince1970: milliseconds).iso8601 == text)
    }

    @Test func dayCountsRoundTripThroughTheCalendar() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, day) = Timestamp.civilDate(daysSince1970: days)
            #expect(Timestamp.daysSince1970(year: year, month: month, day: day) == days)
        }
    }

    @Test func agreesWithFoundationOnWholeSeconds() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<1_000 {
            let seconds = Int64.random(in: 0...4_102_444_800, using: &generator)
            let expected = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
            let ours = Timestamp(millisecondsSince1970: seconds * 1000).iso8601
            #expect(ours == expected.replacingOccurrences(of: "Z", with: ".000Z"))
        }
    }

    @Test func everyDayReadsBackThroughTheParserAsTheSameTime() {
        // Given every day of 1999…2001 and 2023…2025 (leap and common years, 2000 a leap century),
        // at a time with milliseconds, and the first and last moments the export writes with four digits
        var times = (Array(10_592..<11_688) + Array(19_358..<20_454)).map {
            Timestamp(millisecondsSince1970: Int64($0) * 86_400_000 + 49_530_123)
        }
        times += [
            Timestamp(millisecondsSince1970: -62_167_219_200_000), Timestamp(millisecondsSince1970: 253_402_300_799_999),
            Timestamp(millisecondsSince1970: -1), Timestamp(millisecondsSince1970: 0),
        ]
        for time in times {
            // When written and read back
            let read = Timestamp(iso8601: time.iso8601)

            // Then it is the same time
            #expect(read == time, "\(time.iso8601)")
        }
        #expect(Timestamp(millisecondsSince1970: -62_167_219_200_000).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSince1970: 253_402_300_799_999).iso8601 == "9999-12-31T23:59:59.999Z")
    }

    @Test func timesWrittenInARowAreWrittenAsEachAlone() {
        // Given times one writer writes in a row: repeated, back after another, on a new day,
        // before 1970, outside years 0…9999, and random ones
        let base: Int64 = 1_795_341_600_250
        var times: [Int64] = [
            base, base, base + 1002, base, base + 1002, base + 7, base, base + 86_400_000, base + 86_400_000 + 1,
            -1, 0, -1, -62_167_219_200_001, 253_402_300_800_000, base, -62_167_219_200_001, base + 1002,
        ]
        var generator = SplitMix64(seed: 11)
        for _ in 0..<2_000 { times.append(base + Int64.random(in: -3 * 86_400_000...3 * 86_400_000, using: &generator)) }
        var json = JSONWriter()
        json.beginArray()
        for time in times { json.timestamp(Timestamp(millisecondsSince1970: time)) }
        json.endArray()

        // Then each is written as it is alone
        let alone = times.map { "\"\(Timestamp(millisecondsSince1970: $0).iso8601)\"" }
        #expect(json.text == "[" + alone.joined(separator: ",") + "]")
        // And a year outside 0…9999 as it is
        #expect(Timestamp(millisecondsSince1970: 253_402_300_800_000).iso8601 == "10000-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSince1970: -62_167_219_200_001).iso8601 == "-1-12-31T23:59:59.999Z")
    }

    @Test(arguments: [
        "2025-02-29T00:00:00.000Z", "2100-02-29", "1900-02-29T00:00Z", "2024-02-30T00:00:00.000Z",
        "2025-04-31T00:00:00.000Z", "2025-06-31", "2025-09-31", "2025-11-31", "2025-13-01T00:00:00.000Z",
        "2025-00-10T00:00:00.000Z", "2025-01-00T00:00:00.000Z", "2025-01-32", "2025-01-01T24:00:00.000Z",
        "2025-01-01T00:60:00.000Z", "2025-01-01T00:00:60.000Z", "2025-01-01T00:00:00.0a0Z", "2025-01-01T00:00:00.Z",
        "2025-01-01T00:00:00.1234567890Z", "2025-01-01T00:00:00.000ZZ", "2025-01-01T00:00:00.000+2400",
        "2025-01-01T00:00:00.000+01:60", "2025-01-01T00:00:00.000+1", "2025-01-01T00", "2025-01-01T", "25-01-01",
        "+2025-01-01", "2025-1-01", "2025/01/01", " 2025-01-01", "2025-01-01 ", "", "２０２５-01-01",
    ])
    func refusesDatesThatDoNotExistAndTextThatIsNotISO8601(_ text: String) {
        #expect(Timestamp(iso8601: text, timeZone: TimeZone(secondsFromGMT: 0)) == nil)
        #expect(ISO8601DateTime(utf8: Array(text.utf8)) == nil)
    }

    @Test func readsLeapDaysFractionsAndZones() {
        let utc = TimeZone(secondsFromGMT: 0)!
        func at(_ text: String) -> Int64? { Timestamp(iso8601: text, timeZone: utc)?.millisecondsSince1970 }

        // Leap days: every fourth year, not centuries, but every fourth century
        #expect(at("2024-02-29T23:59:59.999Z") == 1_709_251_199_999)
        #expect(at("2000-02-29") == 951_782_400_000)
        // Fractions of one to nine digits, truncated to the millisecond
        #expect(at("2026-11-22T10:00:00.5Z") == 1_795_341_600_500)
        #expect(at("2026-11-22T10:00:00.25Z") == 1_795_341_600_250)
        #expect(at("2026-11-22T10:00:00.123456789Z") == 1_795_341_600_123)
        #expect(at("2026-11-22T10:00:00.999999999Z") == 1_795_341_600_999)
        // Seconds optional; a space for the T; z as Z
        #expect(at("2026-11-22T10:00Z") == 1_795_341_600_000)
        #expect(at("2026-11-22 10:00:00z") == 1_795_341_600_000)
        // Offsets east and west, with and without the colon
        #expect(at("2026-11-22T11:00:00+01:00") == 1_795_341_600_000)
        #expect(at("2026-11-22T04:30:00-0530") == 1_795_341_600_000)
        #expect(at("2026-11-22T00:00:00.000+23:59") == 1_795_219_260_000)
        // Before 1970
        #expect(at("1969-12-31T23:59:59.999Z") == -1)
        // Without a zone, the time is in the zone given
        #expect(Timestamp(iso8601: "2026-11-22T11:00", timeZone: TimeZone(secondsFromGMT: 3600))?.millisecondsSince1970 == 1_795_341_600_000)
        #expect(Timestamp(iso8601: "2026-11-22", timeZone: TimeZone(secondsFromGMT: -3600))?.millisecondsSince1970 == 1_795_309_200_000)

        // And the parser says whether the text named a zone, which an import requires
        let written = ISO8601DateTime(utf8: Array("2026-11-22T10:00:00.250+01:00".utf8))
        #expect(written?.millisecondsAsIfUTC == 1_795_341_600_250)
        #expect(written?.zoneOffsetMilliseconds == 3_600_000)
        #expect(ISO8601DateTime(utf8: Array("2026-11-22T10:00:00.250".utf8))?.zoneOffsetMilliseconds == nil)
        #expect(ISO8601DateTime(utf8: Array("2026-11-22".utf8))?.zoneOffsetMilliseconds == nil)
    }
}

extension TimestampTests {
    @Test(arguments: [
        (Int64(-62_167_219_200_000), "0000-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-1-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
    ])
    func aYearOutsideFourDigitsIsWrittenAsItIs(_ milliseconds: Int64, _ text: String) {
        #expect(Timestamp(millisecondsSince1970: milliseconds).iso8601 == text)
    }

    @Test func aLocalTimeJustBeforeTheSpringForwardIsReadWithItsOwnOffset() throws {
        // Given Paris, which moves from +01:00 to +02:00 at 01:00 UTC on 29 March 2026
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))

        // When 01:30 local, still winter time (whose naive reading as UTC is
        // already summer time), and 03:30 local, summer time, are read
        let winter = Timestamp(iso8601: "2026-03-29T01:30", timeZone: paris)
        let summer = Timestamp(iso8601: "2026-03-29T03:30", timeZone: paris)

        // Then each is read with the offset in force at that moment
        #expect(winter?.iso8601 == "2026-03-29T00:30:00.000Z")
        #expect(summer?.iso8601 == "2026-03-29T01:30:00.000Z")
    }

    @Test func aDateIsTruncatedToTheMillisecondBelow() {
        // Given dates between two milliseconds, after 1970 and just before it
        // Then each is the millisecond below it, never rounded up
        #expect(Timestamp(Date(timeIntervalSince1970: 1.0019)).millisecondsSince1970 == 1_001)
        #expect(Timestamp(Date(timeIntervalSince1970: -0.0004)).millisecondsSince1970 == -1)
    }
}
