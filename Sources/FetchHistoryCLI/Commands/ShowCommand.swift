import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ShowCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one fetch, every field, and its session.",
        discussion: """
            Examples:
              fetch-history show 3f2a1b9c
              fetch-history show 3f2a --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The fetch's id, or a prefix of it that only it has.", valueName: "id"))
    var id: String

    @Option(help: "text or json.")
    var format = TextFormat.text

    @MainActor func run() async throws {
        let (fetch, session) = try await database.reading { history in
            let fetch = try await history.fetch(idPrefix: id)
            return (fetch, try await history.session(id: fetch.sessionID))
        }
        let output = OutputStream.standardOutput()
        switch format {
        case .text: try output.write(Self.text(fetch, session))
        case .json: try output.write(Self.json(fetch, session))
        }
        try output.flush()
    }

    static func text(_ fetch: Fetch, _ session: Session?) -> String {
        func time(_ timestamp: Timestamp?) -> String {
            timestamp.map { "\($0.localDescription()) (\($0.iso8601))" } ?? "-"
        }
        var lines: [(String, String)] = [
            ("id", fetch.id.lowercased),
            ("outcome", fetch.status.rawValue + (fetch.cancelReason.map { " (\($0.rawValue))" } ?? "")),
            ("value", fetch.value?.json ?? "-"),
            ("error", fetch.errorMessage ?? "-"),
            ("source", fetch.source),
            ("started", time(fetch.startedAt)),
            ("ended", time(fetch.endedAt)),
            ("duration", fetch.durationMilliseconds.map(DurationArgument.format(milliseconds:)) ?? "-"),
            ("http status", fetch.response.map { String($0.status) } ?? "-"),
            ("response bytes", fetch.response.map { String($0.bytes) } ?? "-"),
            ("session", fetch.sessionID.lowercased),
        ]
        if let session {
            lines.append(("session started", time(session.startedAt)))
            let recorder = session.process.processID > 0
                ? "process \(session.process.processID) on \(session.process.host)" : "imported"
            lines.append(("session recorder", recorder))
        }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0.padded(to: width) + "  " + $0.1.terminalSafe + "\n" }.joined()
    }

    static func json(_ fetch: Fetch, _ session: Session?) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("fetch")
        json.record(fetch)
        json.key("session")
        if let session {
            json.beginObject()
            json.sessionMembers(session)
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
        json.newline()
        return json.text
    }
}
