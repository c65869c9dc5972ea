import FetchHistoryModel

/// Where the bytes of an import come from.
protocol ByteSource: AnyObject {
    /// Appends at most `count` bytes of the input to `buffer` and returns
    /// how many it appended: 0 only at the end of the input.
    func read(upTo count: Int, into buffer: inout [UInt8]) throws -> Int
}
