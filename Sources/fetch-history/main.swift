import FetchHistoryCLI

await FetchHistoryCommand.main(http: .companion(executable: "fetch-history-http"))
