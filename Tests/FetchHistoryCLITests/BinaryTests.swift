import Foundation
import Testing

@Suite struct BinaryTests {
    @Test func theBinaryIsBuiltBesideTheTests() {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "fetch-history")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path)")
    }
}
