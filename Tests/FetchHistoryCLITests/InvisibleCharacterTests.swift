import Foundation
import Testing

/// Characters that change how text looks without being seen: control
/// characters (C0, DEL, C1) and the bidirectional controls, which can make
/// a recorded error read backwards or hide what follows it.
@Suite("Invisible characters are shown escaped, in tables and in TSV")
struct InvisibleCharacterTests {
    /// Every bidirectional embedding, override and isolate, with a name to find it by.
    static let bidiControls: [(Unicode.Scalar, String)] = [
        ("\u{202A}", "202a"), ("\u{202B}", "202b"), ("\u{202C}", "202c"), ("\u{202D}", "202d"), ("\u{202E}", "202e"),
        ("\u{2066}", "2066"), ("\u{2067}", "2067"), ("\u{2068}", "2068"), ("\u{2069}", "2069"),
    ]

    @Test func noBidiControlReachesTheTerminalRaw() async throws {
        // Given one failed fetch per bidirectional control, its error holding it
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.bidiControls.enumerated().map { index, control in
            .make("failed", id: Ids.fetch(index + 1), at: Fixtures.day0 + Int64(index) * 1000, error: "a\(control.0)b")
        })

        // When they are listed and each is shown
        let list = try await sandbox.succeed("list")
        var shown: [CLIResult] = []
        for index in Self.bidiControls.indices { shown.append(try await sandbox.succeed("show", Ids.fetch(index + 1))) }

        // Then each is written as its code point, never raw
        for (index, (control, name)) in Self.bidiControls.enumerated() {
            #expect(!list.standardOutput.unicodeScalars.contains(control), "list: U+\(name)")
            #expect(list.standardOutput.contains("a\\u{\(name)}b"), "list: U+\(name)")
            #expect(!shown[index].standardOutput.unicodeScalars.contains(control), "show: U+\(name)")
            #expect(shown[index].standardOutput.contains("a\\u{\(name)}b"), "show: U+\(name)")
        }
    }

    @Test func tsvEscapesDeleteAndTheC1ControlsLikeTheC0Ones() async throws {
        // Given a failure whose message holds DEL, two C1 controls and the last
        // character before them that is not one
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(1), at: Fixtures.day0, error: "~\u{7F}del\u{85}nel\u{9B}csi\u{A0}"),
        ])

        // When listed as TSV
        let tsv = try await sandbox.succeed("list", "--format", "tsv", "--no-header")

        // Then each control is \x and two hex digits; ~ and the no-break space stay as they are
        let error = tsv.lines.first.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }?[6]
        #expect(error.map { Array($0.unicodeScalars) } == Array((#"~\x7Fdel\x85nel\x9Bcsi"# + "\u{A0}").unicodeScalars), "\(tsv)")
    }

    @Test func tsvWritesAControlBelowSixteenWithTwoHexDigits() async throws {
        // Given a failure whose message holds U+0001 and U+001F
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(1), at: Fixtures.day0, error: "a\u{1}b\u{1F}c")])

        // When listed as TSV
        let tsv = try await sandbox.succeed("list", "--format", "tsv", "--no-header")

        // Then each is \x and two hex digits, the first with its leading zero
        let error = tsv.lines.first.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }?[6]
        #expect(error == #"a\x01b\x1Fc"#, "\(tsv)")
    }

    @Test func theTerminalGetsTwoHexDigitsForEveryControlUpToU00FF() async throws {
        // Given a failure whose message holds a bell, an escape sequence, NEL (a C1 control) and DEL
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(1), at: Fixtures.day0, error: "bad\u{07}\u{1B}[2J\u{85}\u{7F}end")])

        // When it is listed and shown
        let list = try await sandbox.succeed("list", "--no-header")
        let show = try await sandbox.succeed("show", Ids.fetch(1))

        // Then each control is \x and two hex digits, in the table and in show
        #expect(list.lines == [#"00000001  2026-11-20 10:00:00     100ms  failed   bad\x07\x1b[2J\x85\x7fend  random"#], "\(list)")
        #expect(show.lines.contains(#"error             bad\x07\x1b[2J\x85\x7fend"#), "\(show)")
    }
}
