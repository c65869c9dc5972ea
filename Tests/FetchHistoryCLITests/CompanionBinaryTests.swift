import Foundation
import Testing

/// When `fetch-history` cannot hand an HTTP fetch to `fetch-history-http`,
/// the error says why in words the user can act on: a companion there but
/// not startable, or a command to run, quoted so a shell reads it back.
@Suite("fetch-history-http missing or not startable")
struct CompanionBinaryTests {
    @Test func aCompanionThatCannotBeStartedIsNamedWithTheReason() async throws {
        // Given fetch-history in a folder, beside a fetch-history-http that is not executable
        let sandbox = try Sandbox()
        let alone = URL(fileURLWithPath: sandbox.path("fetch-history"))
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)
        let companion = sandbox.path("fetch-history-http")
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: companion))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: companion)

        // When it is asked to fetch over HTTP
        let result = try await sandbox.run(["fetch", "--source", "http://127.0.0.1:9/n"], executable: alone)

        // Then it says the companion is there but could not be started, and why; exits 1, and creates no database
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: fetching over HTTP needs \(companion), which could not be started: Permission denied\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func anHTTPFetchIsHandedOverBeforeItsWordsAreParsed() async throws {
        // Given fetch-history beside a companion that writes down the words it was given
        let sandbox = try Sandbox()
        let alone = URL(fileURLWithPath: sandbox.path("fetch-history"))
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)
        let companion = sandbox.path("fetch-history-http")
        let handedOver = sandbox.path("handed-over")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(handedOver)'\n".utf8).write(to: URL(fileURLWithPath: companion))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: companion)

        // When an HTTP fetch has a word this program's parser would refuse, its source given either way
        for source in [["--source", "HTTPS://127.0.0.1:9/n"], ["--source=http://127.0.0.1:9/n"]] {
            let words = ["-d", "h.sqlite", "fetch"] + source + ["--count", "nope"]
            let result = try await sandbox.run(words, executable: alone)

            // Then the companion got the words as they were, unparsed, and its exit is the command's
            #expect(result.status == 0, "\(result)")
            #expect(try String(contentsOfFile: handedOver, encoding: .utf8) == words.joined(separator: "\n") + "\n")
            try FileManager.default.removeItem(atPath: handedOver)
        }

        // And a command that only names an HTTP source, or a fetch from the random one, stays here
        for words in [["list", "--source", "http://127.0.0.1:9/n"], ["fetch", "--latency", "0ms", "--", "--source"]] {
            let result = try await sandbox.run(words, executable: alone)
            #expect(!FileManager.default.fileExists(atPath: handedOver), "\(words): \(result)")
        }
    }

    @Test func underSwiftRunTheCommandToRunQuotesAnApostrophe() async throws {
        // Given fetch-history alone in a SwiftPM build folder, as `swift run fetch-history` leaves it
        let sandbox = try Sandbox()
        let folder = sandbox.path(".build/debug")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let alone = URL(fileURLWithPath: folder + "/fetch-history")
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)

        // When it is asked to fetch over HTTP into a database whose name holds an apostrophe
        let result = try await sandbox.run(["fetch", "--source", "http://127.0.0.1:9/n", "-d", "it's.sqlite"], executable: alone)

        // Then the command it gives quotes that name the POSIX way ('it'\''s.sqlite'), so a shell reads it back unchanged
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: fetching over HTTP needs fetch-history-http beside this program, at \(folder)/fetch-history-http, "
            + "and it is not there; `swift run` built only this program, so run "
            + #"`swift run fetch-history-http fetch --source http://127.0.0.1:9/n -d 'it'\''s.sqlite'` (or `swift build` first)"# + "\n",
            "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("it's.sqlite")))
    }
}
