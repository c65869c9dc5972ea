import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ShowCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one fetch, every field, and its session.",
        discussion: """
            The id is what `list` shows, or any start of it; 4 to 7 characters are first read as \
            the end of the 8 characters tables show (`150a` for 1389150a), the newest such fetch. \
            A session's id shows the session and its fetches.

            Examples:
              fetch-history show 3f2a1b9c
              fetch-history show 3f2a --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The fetch's id, a prefix of it that only it has, or the end of its short id.", valueName: "id"), completion: .fetchIDs)
    var id: String

    @Option(help: "text or json.")
    var format = TextFormat.text

    @MainActor func run() async throws {
        let output = OutputStream.standardOutput()
        try await database.reading { history in
            let fetch: Fetch
            do {
                fetch = try await history.fetch(named: id)
            } catch where Self.isNotFound(error) {
                // Not a fetch: a session's id shows the session, or the fetch's error stands.
                let session: Session
                do {
                    session = try await history.session(named: id)
                } catch let sessionError where Self.isNotFound(sessionError) {
                    throw error
                }
                let fetches = try await history.fetches(matching: HistoryFilter(sessionID: session.id), limit: nil)
                switch format {
                case .text: try output.write(Self.text(session, fetches))
                case .json: try output.write(Self.json(session, fetches))
                }
                return
            }
            let session = try await history.session(id: fetch.sessionID)
            switch format {
            case .text: try output.write(Self.text(fetch, session))
            case .json: try output.write(Self.json(fetch, session))
            }
        }
        try output.flush()
    }

    /// Whether no fetch has the id (either store's way of saying so).
    private static func isNotFound(_ error: any Error) -> Bool {
        switch error {
        case HistoryError.notFound, IDPrefixError.notFound: true
        default: false
        }
    }

    /// A session named where a fetch was expected: what it is, then its fetches as `list` shows them.
    static func text(_ session: Session, _ fetches: [Fetch]) -> String {
        let count = "\(fetches.count) \(fetches.count == 1 ? "fetch" : "fetches")"
        var text = "\(session.id.lowercased) is a session (\(session.source.terminalSafe), started "
            + "\(session.startedAt.localDescription())), not a fetch; its \(count):\n"
        guard !fetches.isEmpty else { return text }
        let table = FetchTable(color: false, fitting: fetches)
        text += table.header + "\n" + fetches.map { table.row($0) + "\n" }.joined()
        return text
    }

    static func json(_ session: Session, _ fetches: [Fetch]) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("session")
        json.beginObject()
        json.sessionMembers(session)
        json.endObject()
        json.key("fetches")
        json.beginArray()
        for fetch in fetches { json.record(fetch) }
        json.endArray()
        json.endObject()
        json.newline()
        return json.text
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
        ]
        if let body = fetch.response?.body {
            lines.append(("content type", body.contentType ?? "-"))
            lines.append((Self.bodyLabel, Self.bodyLines(body)))
        }
        lines.append(("session", fetch.sessionID.lowercased))
        if let session {
            lines.append(("session started", time(session.startedAt)))
            let recorder = session.process.processID > 0
                ? "process \(session.process.processID) on \(session.process.host)" : "imported"
            lines.append(("session recorder", recorder))
        }
        let width = lines.map(\.0.count).max() ?? 0
        let indent = "\n" + String(repeating: " ", count: width + 2)
        return lines.map { name, value in
            // A body's lines stay lines, each under the one before it; in any
            // other value a line break is shown as `\n`.
            let shown = name == Self.bodyLabel
                ? value.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }.joined(separator: indent)
                : value.terminalSafe
            return name.padded(to: width) + "  " + shown + "\n"
        }.joined()
    }

    private static let bodyLabel = "response body"

    /// A kept body as `show` prints it: its lines, then a note when it went on.
    private static func bodyLines(_ body: ResponseBody) -> String {
        let text = body.text.hasSuffix("\n") ? String(body.text.dropLast()) : body.text
        return text + (body.isTruncated ? "\n… (truncated: the body went on)" : "")
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
