import Foundation
import Testing

/// `fetch-history` hands HTTP to `fetch-history-http` and servers to
/// `fetch-history-postgres`; when it cannot, the error says why in words
/// the user can act on: a companion there but not startable, or a command
/// to run, quoted so a shell reads it back.
@Suite("The companions: which one, missing or not startable")
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

    @Test func aServerGoesToThePostgresCompanionAndHTTPToTheHTTPOne() async throws {
        // Given fetch-history beside two companions that each write down the words they were given
        let sandbox = try Sandbox()
        let alone = URL(fileURLWithPath: sandbox.path("fetch-history"))
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)
        try Self.placeRecordingCompanions(["fetch-history-http", "fetch-history-postgres"], in: sandbox)
        let recorded = try await sandbox.run(["fetch", "--latency", "0ms"], executable: alone)
        #expect(recorded.status == 0, "\(recorded)")

        // When it is given commands on a server, a push to a collector and an HTTP fetch
        let handOvers: [(words: [String], companion: String)] = [
            (["list", "-d", "postgres://ci@127.0.0.1:9/team"], "fetch-history-postgres"),
            (["push", "--to", "postgresql://ci@127.0.0.1:9/team"], "fetch-history-postgres"),
            (["push", "--to", "http://127.0.0.1:9"], "fetch-history-http"),
            (["fetch", "--source", "http://127.0.0.1:9/n"], "fetch-history-http"),
        ]
        for (words, companion) in handOvers {
            let result = try await sandbox.run(words, executable: alone)

            // Then each went, with its words, to the companion that links what it needs, and to no other
            #expect(result.status == 0, "\(words): \(result)")
            #expect(try Self.wordsHandedOver(in: sandbox) == [companion: words], "\(words)")
        }
    }

    @Test func eachCompanionHandsTheOthersCommandsOn() async throws {
        // Given the two companions as built, side by side, each beside a stand-in for the other
        let sandbox = try Sandbox()
        let built = FetchHistoryProcess.binary.deletingLastPathComponent()
        for (companion, other) in [("fetch-history-http", "fetch-history-postgres"), ("fetch-history-postgres", "fetch-history-http")] {
            let folder = sandbox.path(companion + "-alone")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let program = folder + "/" + companion
            // A hard link where the build folder and the sandbox share a file system: no copy of a large binary.
            do { try FileManager.default.linkItem(atPath: built.appending(path: companion).path, toPath: program) } catch {
                try FileManager.default.copyItem(atPath: built.appending(path: companion).path, toPath: program)
            }
            let handedOver = folder + "/handed-over"
            try Self.writeRecordingScript(at: folder + "/" + other, into: handedOver)

            // When it is given a command that needs the other
            let words = companion == "fetch-history-http"
                ? ["stats", "-d", "postgres://ci@127.0.0.1:9/team"] : ["fetch", "--source", "http://127.0.0.1:9/n", "--count", "2"]
            let result = try await sandbox.run(words, executable: URL(fileURLWithPath: program))

            // Then the other got it, word for word
            #expect(result.status == 0, "\(companion): \(result)")
            #expect(try String(contentsOfFile: handedOver, encoding: .utf8) == words.joined(separator: "\n") + "\n", "\(companion)")
        }
    }

    @Test func withoutThePostgresCompanionACommandOnAServerSaysWhatIsMissing() async throws {
        // Given fetch-history beside fetch-history-http alone, outside a build folder
        let sandbox = try Sandbox()
        let alone = URL(fileURLWithPath: sandbox.path("fetch-history"))
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)
        try Self.placeRecordingCompanions(["fetch-history-http"], in: sandbox)

        // When it is asked to list a team history on a server
        let result = try await sandbox.run(["list", "-d", "postgres://ci@127.0.0.1:9/team"], executable: alone)

        // Then it names the program a server needs and how to get it, exits 1, and the HTTP companion was not asked
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: a team history on a server needs fetch-history-postgres beside this program, at "
            + "\(sandbox.path("fetch-history-postgres")), and it is not there "
            + "(`swift build -c release` builds all three programs; install them together)\n", "\(result)")
        #expect(try Self.wordsHandedOver(in: sandbox).isEmpty)
    }

    /// Scripts named after each companion in the sandbox, each writing the
    /// words it is given to `NAME.words` there.
    private static func placeRecordingCompanions(_ names: [String], in sandbox: Sandbox) throws {
        for name in names { try writeRecordingScript(at: sandbox.path(name), into: sandbox.path(name + ".words")) }
    }

    private static func writeRecordingScript(at path: String, into file: String) throws {
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(file)'\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// The words each recording companion was given, by its name; each
    /// record is taken away once read.
    private static func wordsHandedOver(in sandbox: Sandbox) throws -> [String: [String]] {
        var handedOver: [String: [String]] = [:]
        for name in ["fetch-history-http", "fetch-history-postgres"] {
            let file = sandbox.path(name + ".words")
            guard FileManager.default.fileExists(atPath: file) else { continue }
            handedOver[name] = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            try FileManager.default.removeItem(atPath: file)
        }
        return handedOver
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
