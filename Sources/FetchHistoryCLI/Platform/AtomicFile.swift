import FoundationEssentials
import Glibc

/// A file written under a temporary name in the same folder and renamed
/// over `path` only when complete.
struct AtomicFile {
    let path: String
    let temporaryPath: String
    let descriptor: Int32

    init(path: String) throws {
        self.path = path
        let (folder, name) = path.folderAndName
        var template = Array(((folder.isEmpty ? "." : folder) + "/.\(name).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw OutputError.cannotWrite(target: path, SystemError.ofLastCall)
        }
        // mkstemp makes the file 0600; an export is an ordinary file.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        self.descriptor = descriptor
        self.temporaryPath = String(cString: template.map { $0 })
    }

    func commit() throws {
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            let failure = SystemError.ofLastCall
            unlink(temporaryPath)
            throw OutputError.cannotWrite(target: path, failure)
        }
    }

    func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }
}

extension AtomicFile {
    /// Runs `write` on standard output when `path` is nil or `-`, else on
    /// the file at `path`, written under a temporary name and renamed when
    /// `write` returns: a failure leaves no half-written file there.
    @MainActor static func write(to path: String?, _ write: (OutputStream) async throws -> Void) async throws {
        guard let path, path != "-" else { return try await write(.standardOutput()) }
        let file = try AtomicFile(path: path)
        do {
            try await write(OutputStream(descriptor: file.descriptor, name: path))
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }
}
