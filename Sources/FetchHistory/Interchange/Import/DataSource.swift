import FoundationEssentials

/// The bytes of a `Data`, handed out in order.
final class DataSource: ByteSource {
    private let data: Data
    private var offset = 0

    init(_ data: Data) {
        self.data = data
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let count = min(buffer.count, data.count - offset)
        let start = data.startIndex + offset
        data.copyBytes(to: buffer, from: start..<start + count)
        offset += count
        return count
    }
}
