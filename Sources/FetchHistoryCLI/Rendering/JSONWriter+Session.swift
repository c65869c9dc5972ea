import FetchHistory

extension JSONWriter {
    /// A session's own keys (`id`, `startedAt`, `source`, `host`,
    /// `processId`), inside an object the caller opened: `show` and
    /// `sessions` describe a session with the same keys.
    mutating func sessionMembers(_ session: Session) {
        key("id")
        uuid(session.id)
        key("startedAt")
        timestamp(session.startedAt)
        key("source")
        string(session.source)
        key("host")
        string(session.process.host)
        key("processId")
        integer(Int64(session.process.processID))
    }
}
