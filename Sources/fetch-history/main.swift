import FetchHistoryCLI

FetchHistoryCommand.main(http: .companion(executable: "fetch-history-http"))
