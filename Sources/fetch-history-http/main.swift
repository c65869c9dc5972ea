import FetchHistoryAsyncHTTP
import FetchHistoryCLI

// `fetch-history` with HTTP linked in: the HTTP source (on SwiftNIO) and
// collectors of OpenTelemetry spans. `fetch-history` re-runs a command here
// when it fetches over HTTP or pushes to an http(s):// URL, so that every
// other command starts without loading SwiftNIO.
FetchHistoryCommand.main(
    http: .linked { AsyncHTTPNumberClient(url: $0, keptBodyBytes: $1) },
    collectors: .linked { OTLPCollector(endpoint: $0, scopeVersion: $1) }
)
