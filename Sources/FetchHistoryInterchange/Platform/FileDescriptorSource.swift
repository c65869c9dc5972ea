import FetchHistoryModel
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file, standard input or a pipe, read with `read(2)`.
final class FileDescriptorSource: ByteSource {
    private let descriptor: Int32
    /// What `read(2)` fills, then copied to the caller's buffer: small, so
    /// that it adds little to the import's memory (its reader asks again
    /// until its own buffer is full).
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    func read(upTo count: Int, into buffer: inout [UInt8]) throws(InputReadError) -> Int {
        while true {
            // The C boundary: read(2) is handed the chunk's storage and told
            // its size, never more.
            let read = chunk.withUnsafeMutableBytes { chunk in
                readDescriptor(descriptor, chunk.baseAddress, min(count, chunk.count))
            }
            if read >= 0 {
                buffer.append(contentsOf: chunk[..<read])
                return read
            }
            if errno != EINTR { throw InputReadError(code: errno) }
        }
    }
}

/// `read(2)`, named apart from `FileDescriptorSource.read`, which calls it.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
