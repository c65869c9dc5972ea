import FetchHistoryModel

/// Writes fetches as bytes one at a time, as `export` streams them, then
/// what closes the document: HAR and OTLP.
package protocol FetchStreamWriter: SendableMetatype {
    /// Appends `fetch` to `buffer` (or counts it as left out).
    mutating func write(_ fetch: Fetch, into buffer: inout [UInt8])
    /// Appends what follows the last fetch.
    mutating func end(into buffer: inout [UInt8])
}
