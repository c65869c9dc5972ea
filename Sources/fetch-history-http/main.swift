import FetchHistoryAsyncHTTP
import FetchHistoryCLI
import FetchHistoryPostgres

// `fetch-history` with the network linked in: the HTTP source (on SwiftNIO)
// and a team history on PostgreSQL. `fetch-history` re-runs a command here
// when it fetches over HTTP or names a postgres:// URL, so that every other
// command starts without loading SwiftNIO or Foundation.
FetchHistoryCommand.main(
    http: .linked { AsyncHTTPNumberClient(url: $0, keptBodyBytes: $1) },
    teams: .linked { url in try await PostgresHistory.connect(to: PostgresConnectionSettings(url: url)) }
)
