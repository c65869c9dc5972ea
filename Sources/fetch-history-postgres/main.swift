import FetchHistoryCLI
import FetchHistoryPostgres

// `fetch-history` with PostgreSQL's driver linked in: a team history on a
// server. `fetch-history` re-runs a command here when it names a
// postgres:// URL, so that every other command starts without loading
// SwiftNIO or Foundation, and an HTTP fetch without the driver.
FetchHistoryCommand.main(
    http: .companion(executable: "fetch-history-http"),
    teams: .linked { url in try await PostgresHistory.connect(to: PostgresConnectionSettings(url: url)) }
)
