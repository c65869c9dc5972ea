import Foundation
import Testing

/// Values of every JSON kind go through import, export, `list` and `show`
/// exactly: the JSON they are, shortened only in the table.
@Suite("values of any JSON kind are moved and shown exactly")
struct AnyValueTests {
    /// (the value as an import file writes it, as the export writes it back)
    static let values: [(written: String, exported: String)] = [
        (#"{"id":1,"name":"Ada"}"#, #"{"id":1,"name":"Ada"}"#),
        // White space between tokens goes; inside strings it stays, keys keep their order.
        ("{ \"name\" : \"Bo  b\" ,\t\"id\" : [ 1 , 2 ] }", #"{"name":"Bo  b","id":[1,2]}"#),
        (#"[1,"two",{"three":3.0}]"#, #"[1,"two",{"three":3.0}]"#),
        (#""Grüße, \"Ada\" \u00e9 😀""#, #""Grüße, \"Ada\" \u00e9 😀""#),
        ("42", "42"), ("-7", "-7"), ("-0", "-0"), ("1.5", "1.5"), ("1e400", "1e400"),
        ("99999999999999999999", "99999999999999999999"), ("true", "true"), ("null", "null"),
    ]

    /// One succeeded record per value, one second apart.
    static func file(_ values: [String]) -> Data {
        let lines = values.enumerated().map { number, json in
            ExportRecord.make("succeeded", id: Ids.fetch(700 + number), at: Fixtures.day0 + Int64(number) * 1000, value: 0)
                .jsonLine.replacingOccurrences(of: "\"value\":0,", with: "\"value\":\(json),")
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test func everyKindOfValueImportsAndExportsAsItsJSONAndRoundTripsByteForByte() async throws {
        // Given an import file with a value of every JSON kind
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Self.file(Self.values.map(\.written)))

        // When it is exported, and the export imported into a new history and exported again
        let first = try await sandbox.succeed("export", "--format", "jsonl")
        let copy = sandbox.path("copy.sqlite")
        try await sandbox.succeed("import", "--database", copy, "-", stdin: first.standardOutputData)
        let second = try await sandbox.succeed("export", "--database", copy, "--format", "jsonl")

        // Then each value is exported as the compact JSON it was, and the second export is the first
        #expect(first.lines.count == Self.values.count)
        for (line, value) in zip(first.lines, Self.values) {
            #expect(line.contains("\"value\":\(value.exported),\"error\":null"), "\(line)")
        }
        #expect(String(decoding: Self.file(Self.values.map(\.exported)), as: UTF8.self).split(separator: "\n").map {
            $0.replacingOccurrences(of: "\"status\":null,\"bytes\":null}", with: "")
        }.allSatisfy { template in first.lines.contains { $0.hasPrefix(template) } }, "\(first.standardOutput)")
        #expect(second.standardOutputData == first.standardOutputData)
    }

    @Test func listShortensAValueToItsColumnAndEscapesItWhileShowPrintsItWhole() async throws {
        // Given a long object value holding a right-to-left override
        let name = "Ada \u{202E}txt.exe " + String(repeating: "long ", count: 20)
        let json = #"{"id":1,"name":"\#(name)"}"#
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Self.file([json]))

        // When it is listed and shown
        let list = try await sandbox.succeed("list")
        let show = try await sandbox.succeed("show", String(Ids.fetch(700).prefix(8)))

        // Then the table has its start, cut with an ellipsis, the override escaped;
        // show has all of it, the override escaped too
        let row = try #require(list.lines.last)
        #expect(row.contains(#"{"id":1,"name":"Ada \u{202e}txt.exe lon…"#), "\(row)")
        #expect(!row.contains("\u{202E}"), "\(row)")
        #expect(show.standardOutput.contains(json.replacingOccurrences(of: "\u{202E}", with: "\\u{202e}")), "\(show)")
        #expect(!show.standardOutput.contains("\u{202E}"))
    }

    @Test func aFetchThatFailedCannotCarryAValueButASucceededOneMayHaveFetchedNull() async throws {
        let sandbox = try Sandbox()
        let failed = ExportRecord.make("failed", id: Ids.fetch(800), at: Fixtures.day0).jsonLine
            .replacingOccurrences(of: "\"value\":null", with: "\"value\":{\"id\":1}")
        let refused = try await sandbox.run("import", "-", stdin: Data((failed + "\n").utf8))
        #expect(refused.status == 1 && refused.standardError.contains("'value' must be null for a failed fetch"), "\(refused)")

        try await sandbox.succeed("import", "-", stdin: Self.file(["null"]))
        let export = try await sandbox.succeed("export", "--format", "jsonl")
        #expect(export.standardOutput.contains("\"outcome\":\"succeeded\",\"cancelReason\":null,\"value\":null,"), "\(export)")
    }

    @Test func aSessionOfObjectValuesReplaysAsAMatchInAlignedColumns() async throws {
        // Given a recorded session of two answers that are long objects
        let sandbox = try Sandbox()
        let user = #"{"id":1,"name":"Ada Lovelace, Countess of Lovelace"}"#
        let lines = (0..<2).map { number in
            let start = Fixtures.day0 + Int64(number) * 1000
            let record = ExportRecord.make("succeeded", id: Ids.fetch(900 + number), at: start, duration: 50, value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\(user),")
            return record.dropLast() + ",\"tappedAt\":\"\(ISO.format(start))\",\"timeoutMs\":null,\"endedBy\":\"answer\","
                + "\"endedByAt\":\"\(ISO.format(start + 50))\",\"answerValue\":\(user),\"answerError\":null}"
        }
        try await sandbox.succeed("import", "-", stdin: Data((lines.joined(separator: "\n") + "\n").utf8))

        // When it is replayed
        let replay = try await sandbox.succeed("replay", Ids.session(1))

        // Then it matches, and every step's PROCESSING cell starts where its header does
        #expect(replay.standardOutput.contains("replay matches"), "\(replay)")
        let header = try #require(replay.lines.first { $0.contains("PROCESSING") })
        let column = try #require(header.range(of: "PROCESSING")).lowerBound.utf16Offset(in: header)
        let steps = replay.lines.filter { $0.hasSuffix("-") || $0.contains("ms  ") }.filter { $0 != header }
        #expect(steps.count == 4, "\(replay)")
        for step in steps {
            let cell = step.dropFirst(column).prefix(3)
            #expect(cell == "yes" || cell.hasPrefix("no "), "\(step)")
        }
    }
}
