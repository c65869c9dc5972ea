import FetchHistoryAsyncHTTP
import FetchHistoryCLI
import FetchHistoryPostgres

// `fetch-history` with the network linked in: the HTTP source (on SwiftNIO),
// a team history on PostgreSQL, and collectors of OpenTelemetry spans.
// `fetch-history` re-runs a command here when it fetches over HTTP, names a
// postgres:// URL or pushes to an http(s):// one, so that every other
// command starts without loading SwiftNIO or Foundation.
FetchHistoryCommand.main(
    http: .linked { AsyncHTTPNumberClient(url: $0, keptBodyBytes: $1) },
    teams: .linked { url in try await PostgresHistory.connect(to: PostgresConnectionSettings(url: url)) },
    collectors: .linked { OTLPCollector(endpoint: $0, scopeVersion: $1) }
)
