#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file the commands read a chunk at a time (`import`), so its size does
/// not matter: standard input, or a file, pipe or `<(…)` opened by path.
struct InputFile {
    /// The descriptor to read from.
    let descriptor: Int32

    static let standardInput = InputFile(descriptor: STDIN_FILENO)

    /// Opens `path` for reading. A folder is refused here, where it is
    /// known, rather than by the first read.
    static func open(_ path: String) throws(InputFileError) -> InputFile {
        let descriptor = openDescriptor(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, SystemError.ofLastCall) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            closeDescriptor(descriptor)
            throw .isDirectory(path: path)
        }
        return InputFile(descriptor: descriptor)
    }

    /// Closes the file; standard input is left open.
    func close() {
        if descriptor != STDIN_FILENO { closeDescriptor(descriptor) }
    }
}

/// Why a file to read could not be opened.
enum InputFileError: Error {
    case cannotOpen(path: String, SystemError)
    case isDirectory(path: String)
}

/// `open(2)` and `close(2)`, named apart from `InputFile`'s own `open` and `close`.
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
