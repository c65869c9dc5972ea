import FetchHistoryModel
import FoundationEssentials

/// The bytes of a `Data`, handed out in order.
final class DataSource: ByteSource {
    private let data: Data
    private var offset = 0

    init(_ data: Data) {
        self.data = data
    }

    func read(upTo count: Int, into buffer: inout [UInt8]) -> Int {
        let count = min(count, data.count - offset)
        let start = data.startIndex + offset
        buffer.append(contentsOf: data[start..<start + count])
        offset += count
        return count
    }
}
