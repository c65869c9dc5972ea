import FoundationEssentials

/// An import was handed a fetch whose id an earlier fetch of the same
/// import already used. `FetchRecordReader` reports it with the position of
/// the second record.
public struct RepeatedFetchID: Error, Equatable, Sendable {
    public var id: UUID
    /// 1-based number of the fetch that used the id first.
    public var firstRecord: Int

    public init(id: UUID, firstRecord: Int) {
        self.id = id
        self.firstRecord = firstRecord
    }
}
