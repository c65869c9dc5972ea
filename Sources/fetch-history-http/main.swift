import FetchHistoryCLI
import FetchHistoryHTTP

// `fetch-history` with the HTTP source linked in. `fetch-history` re-runs a
// command here when it fetches over HTTP, so that every other command starts
// without loading libcurl.
FetchHistoryCommand.main(http: .linked { HTTPNumberClient(url: $0) })
