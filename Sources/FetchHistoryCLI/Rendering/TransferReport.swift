import FetchHistory

/// The one line `push` and `pull` print: what moved, in words or as JSON.
enum TransferReport {
    static func write(_ summary: TransferSummary, pushed: Bool, server: String, format: TextFormat) throws {
        let output = OutputStream.standardOutput()
        switch format {
        case .json: try output.write(json(summary))
        case .text: try output.write(sentence(summary, pushed: pushed, server: server) + "\n")
        }
        try output.flush()
        SecretsNote.write(command: "pull", sources: summary.sourcesWithSecretsHidden)
    }

    /// `pushed 10 fetches to ci@db:5432/team: 8 new, 2 already there`.
    static func sentence(_ summary: TransferSummary, pushed: Bool, server: String) -> String {
        let fetches = RetentionReport.count(summary.sent, "fetch", "fetches")
        let line = if summary.sent == 0 {
            pushed ? "nothing to push to \(server): it has every ended fetch" : "nothing to pull from \(server): no fetch matches"
        } else if pushed {
            "pushed \(fetches) to \(server): \(summary.new) new, \(summary.alreadyThere) already there"
        } else {
            "pulled \(fetches) from \(server): \(summary.new) new, \(summary.alreadyThere) already here"
        }
        return line + stillRunning(summary)
    }

    /// A push to a collector of spans: `pushed 10 fetches as spans to
    /// http://collector:4318/v1/traces`, or, in JSON, the fields of a push
    /// to a team history (`new`: the spans it accepted) and `rejected`.
    static func write(_ summary: TransferSummary, toCollector collector: String, format: TextFormat) throws {
        let output = OutputStream.standardOutput()
        switch format {
        case .json:
            try output.write(json(summary, rejected: summary.sent - summary.new))
        case .text:
            let line = summary.sent == 0
                ? "nothing to push to \(collector): it has every ended fetch"
                : "pushed \(RetentionReport.count(summary.sent, "fetch", "fetches")) as spans to \(collector)"
            try output.write(line + stillRunning(summary) + "\n")
        }
        try output.flush()
    }

    /// `; 2 fetches still running, pushed once ended`, or nothing.
    private static func stillRunning(_ summary: TransferSummary) -> String {
        guard summary.stillRunning > 0 else { return "" }
        return "; \(RetentionReport.count(summary.stillRunning, "fetch", "fetches")) still running, pushed once ended"
    }

    /// `{"sent":10,"new":8,"alreadyThere":2,"stillRunning":0}`; for a
    /// collector, which cannot say what it had, `alreadyThere` is 0 and
    /// `rejected` follows it.
    static func json(_ summary: TransferSummary, rejected: Int? = nil) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("sent")
        json.integer(summary.sent)
        json.key("new")
        json.integer(summary.new)
        json.key("alreadyThere")
        json.integer(rejected == nil ? summary.alreadyThere : 0)
        if let rejected {
            json.key("rejected")
            json.integer(rejected)
        }
        json.key("stillRunning")
        json.integer(summary.stillRunning)
        json.endObject()
        return json.text + "\n"
    }
}
