import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-drive a recorded session through the view state and check it reproduces the history.",
        discussion: """
            The recorded taps, cancels and timeouts happen again at their recorded moments, on a \
            virtual clock (instantly), and a scripted source gives the recorded answers when they \
            came. The replay's fetches are compared with the recorded ones: outcome, value, error, \
            order and times to the millisecond. Exit 0 when they match, 1 with the first \
            differences when not, or when the session cannot be replayed.

            With --live the session's taps and cancels are re-run in real time against the real \
            source, recorded as a new session, and the outcomes are compared side by side; a tap \
            that came after the previous fetch ended waits for the re-run's fetch to end first. \
            Without an id it re-runs the newest session that is not itself a live re-run. \
            Exit 0 when the re-run has as many fetches as the recording and each ended the \
            same way (the same outcome: succeeded, failed, cancelled, …; values may differ), \
            else 1.

            Examples:
              fetch-history replay
              fetch-history replay 853a984f --format json
              fetch-history replay --live --latency 200ms
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(
        help: ArgumentHelp("The session's id or a unique prefix; the newest session by default (with --live, the newest that is not a live re-run).", valueName: "session"),
        completion: .sessionIDs
    )
    var session: String?

    @Option(help: "text (a timeline), json (one document: the steps and the result) or jsonl (one object per step, then the result).")
    var format = ReplayFormat.text

    @Flag(help: "Re-run the session against the real source in real time, recorded as a new session.")
    var live = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --live and the random source: how long it takes to answer (default: 1s).", valueName: "duration"),
        transform: DurationArgument.init(parsing:)
    )
    var latency: DurationArgument?

    @OptionGroup var keepBody: KeepBodyOption

    func validate() throws {
        try DurationArgument.refuseNegative(latency, option: "--latency")
        if latency != nil, !live { throw ValidationError("--latency only applies with --live") }
        if keepBody.given != nil, !live { throw ValidationError("--keep-body only applies with --live") }
    }

    func run() async throws {
        try await replay()
    }

    @MainActor
    private func replay() async throws {
        let store = live ? try database.openForWriting(for: "replay") : try database.openStoreForReading(for: "replay")
        let prefix = session
        let live = live
        let (chosen, fetches) = try await store.read { db -> (Session, [Fetch]) in
            let chosen: Session
            if let prefix {
                chosen = try db.session(named: prefix)
            } else {
                // A live re-run is recorded as a session too; re-running it
                // again would only compare the re-run with itself.
                guard let newest = try live ? db.newestRecordedSession() : db.newestSession() else {
                    throw ReplayError.noSessions
                }
                chosen = newest
            }
            var fetches: [Fetch] = []
            try db.forEachFetch(matching: HistoryFilter(sessionID: chosen.id)) { fetches.append($0) }
            return (chosen, fetches)
        }
        let replay: SessionReplay
        do {
            replay = try SessionReplay(fetches: fetches, origin: chosen.startedAt)
        } catch {
            throw ReplayError.notReplayable(session: chosen.id, error)
        }
        if live {
            return try await LiveReplay(
                session: chosen, fetches: fetches, latency: latency?.duration, keptBodyBytes: keepBody.bytes, store: store
            ).run(format: format)
        }

        let report = await replay.run()
        let output = OutputStream.standardOutput()
        switch format {
        case .text: try output.write(Self.text(report, session: chosen))
        case .json: try output.write(Self.json(report, lines: false))
        case .jsonl: try output.write(Self.json(report, lines: true))
        }
        try output.flush()
        if !report.matches { throw ExitCode.failure }
    }

    /// The timeline, indented two cells under its heading and fitted to
    /// `width`: on a narrow screen the event, the value and the error are cut.
    static func text(_ report: ReplayReport, session: Session, width: Int? = Terminal.width) -> String {
        let heading = "replaying session \(session.id.lowercased.prefix(8)) ("
        let source = session.source.terminalSafe
        var started = "started \(session.startedAt.localDescription())"
        // A narrow screen drops what the start shares with today before cutting the source.
        if let width, heading.count + source.displayWidth + started.count + 3 > width {
            started = "started " + LocalTimePrecision.sharedWithToday([session.startedAt], in: nil).describe(session.startedAt, in: nil)
        }
        let room = width.map { max($0 - heading.count - started.count - 3, 6) }
        var lines = [heading + (room.map { source.shortenedURL(to: $0) } ?? source) + ", " + started + ")"]
        let table = TextTable(
            columns: [
                TextTable.Column(header: "OFFSET", isRightAligned: true), TextTable.Column(header: "EVENT", cut: .end),
                TextTable.Column(header: "PROCESSING", shortHeader: "BUSY"), TextTable.Column(header: "VALUE", cut: .end),
                TextTable.Column(header: "ERROR", cut: .words),
            ],
            rows: report.steps.map { step in
                [
                    DurationArgument.format(milliseconds: step.offset.wholeMilliseconds), step.event.terminalSafe,
                    step.isProcessing ? "yes" : "no", step.valueLabel.terminalSafe, step.error?.terminalSafe ?? "-",
                ]
            }
        )
        lines += table.lines(width: width.map { $0 - 2 }).map { "  " + $0 }
        if let stoppedAt = report.stoppedAt { lines.append(stoppedAt) }
        if report.matches {
            lines.append("replay matches \(report.fetchCount) \(report.fetchCount == 1 ? "fetch" : "fetches")")
        } else {
            lines.append("replay differs from the recording:")
            lines += report.differences.map { "  " + $0.terminalSafe }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: `{"steps":[…],"matches":…,"fetches":…,"stoppedAt":…,"differences":[…]}`,
    /// or, as `lines`, one object per step, then one with the result.
    static func json(_ report: ReplayReport, lines: Bool) -> String {
        var json = JSONWriter()
        if !lines {
            json.beginObject()
            json.key("steps")
            json.beginArray()
        }
        for step in report.steps {
            json.beginObject()
            json.key("offsetMs")
            json.integer(step.offset.wholeMilliseconds)
            json.key("event")
            json.string(step.event)
            json.key("isProcessing")
            json.bool(step.isProcessing)
            json.key("valueLabel")
            json.string(step.valueLabel)
            json.key("error")
            json.string(step.error)
            json.endObject()
            if lines { json.newline() }
        }
        if lines {
            json.beginObject()
        } else {
            json.endArray()
        }
        json.key("matches")
        json.bool(report.matches)
        json.key("fetches")
        json.integer(report.fetchCount)
        json.key("stoppedAt")
        json.string(report.stoppedAt)
        json.key("differences")
        json.beginArray()
        for difference in report.differences { json.string(difference) }
        json.endArray()
        json.endObject()
        json.newline()
        return json.text
    }
}
