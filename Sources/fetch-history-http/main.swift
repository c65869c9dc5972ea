import FetchHistoryCLI
import FetchHistoryHTTP
import FetchHistoryPostgres

// `fetch-history` with the network linked in: the HTTP source and a team
// history on PostgreSQL. `fetch-history` re-runs a command here when it
// fetches over HTTP or names a postgres:// URL, so that every other command
// starts without loading libcurl, SwiftNIO or Foundation.
FetchHistoryCommand.main(
    http: .linked { HTTPNumberClient(url: $0) },
    teams: .linked { url in try await PostgresHistory.connect(to: PostgresConnectionSettings(url: url)) }
)
