import Foundation
import Testing

/// `--format csv` on list, export and sessions, read back by an RFC 4180
/// reader of the tests' own, and `--fields` choosing the export record's
/// fields for json, jsonl, tsv and csv.
@Suite("CSV and --fields")
struct CSVAndFieldsTests {
    static let awkwardError = "refused, said \"no\"\nthen hung up"

    static func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let records = [
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, value: 7),
            ExportRecord.make("failed", id: Ids.fetch(2), source: Fixtures.otherSource, at: Fixtures.day0 + 1000, error: awkwardError, status: 500, bytes: 12),
        ]
        try await sandbox.succeed("import", "-", stdin: Data(records.map { $0.jsonLine + "\n" }.joined().utf8))
        return sandbox
    }

    /// RFC 4180's grammar: records end with CRLF, fields with a comma, a
    /// quoted field may hold anything with its quotes doubled.
    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = [], fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if characters.first == "\"" { field.unicodeScalars.append(characters.removeFirst()) } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted: quoted = true; wasQuoted = true
            case ",": fields.append(field); field = ""; wasQuoted = false
            case "\r":
                guard characters.popFirst() == "\n" else { throw CSVSyntax("a CR not followed by LF") }
                fields.append(field); records.append(fields); fields = []; field = ""; wasQuoted = false
            case "\n": throw CSVSyntax("a bare LF ends a record")
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard field.isEmpty, fields.isEmpty, !quoted else { throw CSVSyntax("the last record has no CRLF") }
        return records
    }

    struct CSVSyntax: Error { let reason: String; init(_ reason: String) { self.reason = reason } }

    @Test func listAsCSVIsTheTSVColumnsAsRFC4180HasThem() async throws {
        // Given a fetch whose error holds a comma, quotes and a line break
        let sandbox = try await Self.history()

        // When listed as CSV
        let result = try await sandbox.succeed("list", "--format", "csv")

        // Then an RFC 4180 reader gets the header and each fetch's cells, the error whole
        let rows = try Self.records(result.standardOutput)
        #expect(rows.first == ExportRecord.keys, "\(result)")
        #expect(rows.count == 3, "\(rows)")
        #expect(rows[1][0] == Ids.fetch(2) && rows[1][6] == Self.awkwardError && rows[1][10] == "500", "\(rows)")
        #expect(rows[2][0] == Ids.fetch(1) && rows[2][5] == "7" && rows[2][6] == "", "\(rows)")
    }

    @Test(arguments: ["first line\nsecond line", "first line\r\nsecond line", "carriage\rreturn", "\"\u{301}x", "a\"\u{301}\""])
    func aCellWithALineBreakOrAQuoteIsQuoted(_ error: String) async throws {
        // Given a failed fetch whose error has a line break, or a quote carrying a combining accent
        // (one Character with it, still a quote to double)
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(1), at: Fixtures.day0, error: error)])

        // When its error is listed as CSV
        let result = try await sandbox.succeed("list", "--format", "csv", "--fields", "id,error", "--no-header")

        // Then the cell is quoted, so the record stays one record with the error whole
        #expect(try Self.records(result.standardOutput) == [[Ids.fetch(1), error]], "\(result.standardOutput.debugDescription)")
    }

    @Test func exportAndSessionsWriteCSVToo() async throws {
        // Given the history
        let sandbox = try await Self.history()

        // When exported and its sessions listed as CSV, with and without the header
        let export = try await sandbox.succeed("export", "--format", "csv")
        let bare = try await sandbox.succeed("export", "--format", "csv", "--no-header")
        let sessions = try await sandbox.succeed("sessions", "--format", "csv", "--no-header")

        // Then export has every field of the record, oldest first, and sessions a row per session
        let rows = try Self.records(export.standardOutput)
        #expect(rows.first?.count == 22 && rows.first?.last == "truncated", "\(export)")
        #expect(rows.dropFirst().map(\.first) == [Ids.fetch(1), Ids.fetch(2)], "\(export)")
        #expect(try Self.records(bare.standardOutput) == Array(rows.dropFirst()))
        let sessionRows = try Self.records(sessions.standardOutput)
        #expect(sessionRows.count == 1 && sessionRows[0][0] == Ids.session(1) && sessionRows[0][4] == "2", "\(sessions)")
    }

    @Test func statsAsCSVIsTheTotalsOrARowPerGroup() async throws {
        // Given one succeeded fetch of random (100 ms) and one failed of the other source
        let sandbox = try await Self.history()

        // When stats is asked for as CSV, alone and by source without the header
        let totals = try await sandbox.succeed("stats", "--format", "csv")
        let bySource = try await sandbox.succeed("stats", "--format", "csv", "--by", "source", "--no-header")

        // Then the totals row has every count, the rate as a fraction and the percentiles in ms
        #expect(try Self.records(totals.standardOutput) == [
            ["fetches", "succeeded", "failed", "cancelled", "timed-out", "interrupted", "running", "successRate", "p50Ms", "p90Ms", "p99Ms", "maxMs", "p95Ms"],
            ["2", "1", "1", "0", "0", "0", "0", "0.5", "100", "100", "100", "100", "100"],
        ], "\(totals)")
        // and a row per source, in key order, with the percentiles of its succeeded fetches (none: empty)
        #expect(try Self.records(bySource.standardOutput) == [
            [Fixtures.otherSource, "1", "0", "1", "0", "0", "0", "0", "0.0", "", "", "", "", ""],
            ["random", "1", "1", "0", "0", "0", "0", "0", "1.0", "100", "100", "100", "100", "100"],
        ], "\(bySource)")
    }

    @Test(arguments: ["json", "jsonl", "tsv", "csv"])
    func fieldsChooseAndOrderTheFields(_ format: String) async throws {
        // Given the history
        let sandbox = try await Self.history()

        // When listed with --fields durationMs,id,status
        let result = try await sandbox.succeed("list", "--format", format, "--fields", "durationMs,id,status")

        // Then each row has those fields only, in that order
        switch format {
        case "json", "jsonl":
            let text = format == "json" ? result.standardOutput : "[" + result.lines.joined(separator: ",") + "]"
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            #expect(objects.map { Set($0.keys) } == [["durationMs", "id", "status"], ["durationMs", "id", "status"]], "\(result)")
            #expect(objects.map { $0["id"] as? String } == [Ids.fetch(2), Ids.fetch(1)], "\(result)")
            #expect(result.standardOutput.contains("{\"durationMs\":100,\"id\":\"\(Ids.fetch(2))\",\"status\":500}"), "\(result)")
        case "tsv":
            #expect(result.lines == ["durationMs\tid\tstatus", "100\t\(Ids.fetch(2))\t500", "100\t\(Ids.fetch(1))\t"], "\(result)")
        default:
            #expect(try Self.records(result.standardOutput) == [["durationMs", "id", "status"], ["100", Ids.fetch(2), "500"], ["100", Ids.fetch(1), ""]])
        }
    }

    @Test(arguments: [
        (["list", "--fields", "id,nope"], "error: --fields has 'nope', which is not a field; use id, session, source"),
        (["list", "--fields", "id,id"], "error: --fields names id twice"),
        (["list", "--fields", "id"], "error: --fields applies to --format json, jsonl, tsv and csv, not table"),
        (["export", "--no-header"], "error: --no-header applies to --format csv only, not json"),
    ])
    func aWrongFieldOrHeaderOptionIsAUsageError(_ arguments: [String], _ message: String) async throws {
        let sandbox = try await Self.history()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 64 && result.standardError.hasPrefix(message), "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }
}
