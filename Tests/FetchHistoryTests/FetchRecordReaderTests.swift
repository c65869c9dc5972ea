import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The reads here take seconds of CPU in a debug build (every chunk size, a
/// 16 MiB record), so they run on threads of their own
/// (`runOnDedicatedThread`): on the cooperative pool, shared by every test in
/// the process, they held both of its threads on a two-core machine and
/// starved the HTTP tests into their timeouts. The expectations stay on the
/// test's task, where Swift Testing can attribute them.
@Suite("FetchRecordReader reads exports a chunk at a time, whatever the chunk boundaries")
struct FetchRecordReaderTests {
    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    /// Fetches of several kinds, with strings that need escapes (quotes, a
    /// newline, a control character) and non-ASCII text.
    static let fetches: [Fetch] = [
        Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: at(1_763_805_600_000),
            endedAt: at(1_763_805_600_250), durationMilliseconds: 250, outcome: .succeeded(42),
            script: FetchScript(
                tappedAt: at(1_763_805_600_000), timeoutMilliseconds: 5_000,
                end: FetchScript.End(cause: .answer(42), at: at(1_763_805_600_250))
            )
        ),
        Fetch(
            id: UUID(), sessionID: UUID(), source: "https://numbers.example/ünïcode", startedAt: at(1_764_460_800_999),
            endedAt: at(1_764_460_801_000), durationMilliseconds: 1, outcome: .failed("said \"no\"\nthen \u{01} ✓"),
            response: SourceResponse(status: 503, bytes: 17),
            script: FetchScript(
                tappedAt: at(1_764_460_800_999),
                end: FetchScript.End(cause: .failure("said \"no\"\nthen \u{01} ✓"), at: at(1_764_460_801_000))
            )
        ),
        Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: at(-86_400_000), endedAt: nil,
            durationMilliseconds: nil, outcome: .interrupted, script: FetchScript(tappedAt: at(-86_400_000))
        ),
    ]

    static func jsonl(_ fetches: [Fetch]) -> Data {
        Data(fetches.map { FetchJSON.string($0) + "\n" }.joined().utf8)
    }

    /// As `export --format json` writes it.
    static func jsonArray(_ fetches: [Fetch]) -> Data {
        Data(("[\n" + fetches.map(FetchJSON.string).joined(separator: ",\n") + "\n]\n").utf8)
    }

    /// Reads `data` through a source that notes the largest read asked of it.
    static func read(_ data: Data, chunkSize: Int) throws -> (fetches: [Fetch], largestRead: Int) {
        let source = MeasuredSource(data)
        var fetches: [Fetch] = []
        try FetchRecordReader(source: source, chunkSize: chunkSize).forEach { fetches.append($0) }
        return (fetches, source.largestRead)
    }

    final class MeasuredSource: ByteSource {
        private let data: DataSource
        private(set) var largestRead = 0

        init(_ data: Data) {
            self.data = DataSource(data)
        }

        func read(upTo count: Int, into buffer: inout [UInt8]) throws -> Int {
            largestRead = max(largestRead, count)
            return data.read(upTo: count, into: &buffer)
        }
    }

    /// Counts what was read, and notes a read after `close()`.
    final class CountingSource: ByteSource, @unchecked Sendable {
        // Unchecked: the reading thread and the test's thread take turns,
        // ordered by `forEach`'s return.
        private let data: DataSource
        private(set) var bytesRead = 0
        private(set) var readAfterClose = false
        private var closed = false

        init(_ data: Data) {
            self.data = DataSource(data)
        }

        func close() { closed = true }

        func read(upTo count: Int, into buffer: inout [UInt8]) throws -> Int {
            if closed { readAfterClose = true }
            let read = data.read(upTo: count, into: &buffer)
            bytesRead += read
            return read
        }
    }

    /// The error reading `data` throws.
    static func importError(_ data: Data, chunkSize: Int = FetchRecordReader.defaultChunkSize) -> ImportError? {
        do {
            _ = try read(data, chunkSize: chunkSize)
            return nil
        } catch {
            return error as? ImportError
        }
    }

    @Test(arguments: ["jsonl", "json"])
    func aRecordCutAnywhereByTheChunkBoundaryIsReadWhole(format: String) async throws {
        // Given an export of three records
        let data = format == "jsonl" ? Self.jsonl(Self.fetches) : Self.jsonArray(Self.fetches)

        // When it is read with every chunk size from one byte to the whole export
        let reads = try await runOnDedicatedThread {
            try (1...data.count).map { chunkSize in try Self.read(data, chunkSize: chunkSize).fetches }
        }

        // Then each read gives the three fetches, field for field
        for (chunkSize, fetches) in zip(1..., reads) {
            #expect(fetches == Self.fetches, "chunk size \(chunkSize)")
        }
    }

    @Test func aSurrogatePairCutBetweenItsTwoEscapesIsReadWhole() async throws {
        // Given a record whose error is written as a \u surrogate pair (an emoji)
        let fetch = Self.fetches[1]
        let line = FetchJSON.string(fetch).replacingOccurrences(of: "said \\\"no\\\"", with: "\\ud83d\\ude00")
        let data = Data((line + "\n").utf8)

        // When it is read with every chunk size
        let reads = try await runOnDedicatedThread {
            try (1...data.count).map { chunkSize in try Self.read(data, chunkSize: chunkSize).fetches }
        }

        // Then the pair is one character wherever the boundary fell
        for (chunkSize, fetches) in zip(1..., reads) {
            #expect(fetches.first?.errorMessage == "😀\nthen \u{01} ✓", "chunk size \(chunkSize)")
        }
    }

    @Test func aLongInputIsReadWithABufferOfOneChunk() async throws {
        // Given an export of 5,000 records, about 3 MB
        let many = (0..<5_000).map { index in
            var fetch = Self.fetches[index % 3]
            fetch.id = UUID()
            return fetch
        }
        let data = await runOnDedicatedThread { Self.jsonl(many) }

        // When it is read in 4 KiB chunks
        let (fetches, largestRead) = try await runOnDedicatedThread { try Self.read(data, chunkSize: 4096) }

        // Then every record arrives, and no read needed more room than one chunk
        #expect(fetches == many)
        #expect(largestRead <= 4096)
    }

    /// `count` records, each with an id of its own.
    static func many(_ count: Int) -> [Fetch] {
        (0..<count).map { index in
            var fetch = fetches[index % 3]
            fetch.id = UUID()
            return fetch
        }
    }

    @Test func recordsReadAheadArriveInOrderAndAnErrorAfterEveryRecordBeforeIt() async throws {
        // Given 10,000 records, far more than are read ahead, then a bad line
        let many = Self.many(10_000)
        let data = await runOnDedicatedThread { Self.jsonl(many) + Data("{\"id\": 7}\n".utf8) }

        // When it is read
        let (received, error) = await runOnDedicatedThread {
            var received: [Fetch] = []
            do {
                try FetchRecordReader(data: data, chunkSize: 4096).forEach { received.append($0) }
                return (received, ImportError?.none)
            } catch {
                return (received, error as? ImportError)
            }
        }

        // Then every good record reached the caller, in order, before the error, which names the last line
        #expect(received == many)
        #expect(error?.line == 10_001 && error?.column == 1 && error?.record == 10_001, "\(String(describing: error))")
    }

    @Test func eachBatchIsPreparedOnTheReadingThreadAndArrivesInOrder() async throws {
        // Given 1,000 records, several batches' worth
        let many = Self.many(1_000)
        let data = await runOnDedicatedThread { Self.jsonl(many) }

        // When they are read a batch at a time, each batch prepared with the thread it was prepared on
        let (batches, callerThread) = try await runOnDedicatedThread {
            var batches: [(fetches: [Fetch], thread: ObjectIdentifier)] = []
            try FetchRecordReader(data: data, chunkSize: 4096).forEachBatch(preparing: { records in
                (records.map(\.fetch), ObjectIdentifier(Thread.current))
            }) { batches.append($0) }
            return (batches, ObjectIdentifier(Thread.current))
        }

        // Then every record arrived once, in order, in batches none of which was prepared on the caller's thread
        #expect(batches.flatMap(\.fetches) == many)
        #expect(batches.count > 1)
        #expect(batches.allSatisfy { $0.thread != callerThread })
    }

    @Test func aCallerThatStopsEarlyStopsTheReadingAndNothingIsReadAfterward() async throws {
        // Given 20,000 records, about 12 MB
        let data = await runOnDedicatedThread { Self.jsonl(Self.many(20_000)) }
        let source = CountingSource(data)

        // When the caller stops at the first record
        struct Enough: Error {}
        let thrown = await runOnDedicatedThread {
            do {
                try FetchRecordReader(source: source, chunkSize: 4096).forEach { _ in throw Enough() }
                return false
            } catch {
                source.close()
                return error is Enough
            }
        }

        // Then its error comes through, the reading stopped a few thousand
        // records ahead at most, and it had stopped by the time forEach returned
        #expect(thrown)
        #expect(source.bytesRead < data.count / 2, "\(source.bytesRead) of \(data.count)")
        #expect(!source.readAfterClose)
    }

    @Test func errorsNameTheSamePlaceWhateverTheChunkSize() async throws {
        // Given inputs with problems after two good lines: a cut record, a
        // wrong value, two records on one line, a bad escape, a cut array
        let good = Self.jsonl(Array(Self.fetches.prefix(2)))
        let third = FetchJSON.string(Self.fetches[2])
        let lastLines: [String] = [
            String(third.prefix(100)),
            third.replacingOccurrences(of: "\"interrupted\"", with: "\"exploded\""),
            third + " " + third + "\n",
            third.replacingOccurrences(of: "\"random\"", with: "\"ran\\qdom\""),
        ]
        let inputs: [Data] = lastLines.map { good + Data($0.utf8) } + [Self.jsonArray(Self.fetches).dropLast(4)]
        for input in inputs {
            let expected = Self.importError(input)
            #expect(expected != nil)

            // When each is read with every chunk size
            let errors = await runOnDedicatedThread {
                (1...input.count).map { chunkSize in Self.importError(input, chunkSize: chunkSize) }
            }

            // Then the error is the same: message, line, column and record
            for (chunkSize, error) in zip(1..., errors) {
                #expect(error == expected, "chunk size \(chunkSize): \(expected)")
            }
        }
    }

    @Test func aRecordLongerThanTheBufferCanGrowIsRefusedWithItsPlace() async throws {
        // Given a second record whose error message is longer than the buffer may grow
        let data = await runOnDedicatedThread {
            let long = FetchJSON.string(Self.fetches[1])
                .replacingOccurrences(of: "said", with: String(repeating: "x", count: InputBuffer.maximumSize))
            return Self.jsonl([Self.fetches[0]]) + Data(("  " + long).utf8)
        }

        // When it is read
        let error = await runOnDedicatedThread { Self.importError(data, chunkSize: 1 << 16) }

        // Then it is refused where the record starts
        #expect(error == ImportError(line: 2, column: 3, record: 2, message: "the record starting here is longer than 16 MiB"))
    }

    @Test(arguments: [3, 7, 64, FetchRecordReader.defaultChunkSize])
    func inputThatIsNoExportAndAnExportCutShortAreToldApartWhateverTheChunkSize(chunkSize: Int) async throws {
        // Given a TSV header, text, and an export cut inside its second record and inside its array
        let tsv = Data("id\tsession\tsource\tstartedAt\n1\t2\t3\t4\n".utf8)
        let text = Data("no export here\n".utf8)
        let lines = Self.jsonl(Self.fetches)
        let cutLine = lines.prefix(lines.firstIndex(of: UInt8(ascii: "\n"))! + 20)
        let array = Self.jsonArray(Self.fetches)
        let cutArray = array.prefix(array.firstRange(of: Data("},".utf8))!.upperBound)

        // When each is read, a few bytes at a time and at once
        let errors = await runOnDedicatedThread {
            [tsv, text, cutLine, cutArray].map { Self.importError($0, chunkSize: chunkSize) }
        }

        // Then the first two are no export, named for what they are; the others are cut short
        #expect(errors.map { $0?.problem } == [.notAnExport, .notAnExport, .cutShort, .cutShort])
        #expect(errors[0]?.description.hasPrefix("not a fetch-history export: its first line is a TSV header (id, session, source, …); ") == true)
        #expect(errors[1]?.description.hasPrefix(#"not a fetch-history export: its first line is text ("no export here"); "#) == true)
        #expect(errors[2] == ImportError(
            line: 2, column: 1, record: 2, message: "the input ends inside this record, as if it was cut short", problem: .cutShort))
        #expect(errors[3]?.message == "the input ends inside the JSON array, after record 1, as if it was cut short")
    }

    @Test func theReaderKnowsTheKeysTheExportWritesInTheirOrder() throws {
        // Given the keys of a written record, in order
        var written: [String] = []
        var parser = JSONParser(bytes: Array(FetchJSON.string(Self.fetches[1]).utf8))
        try parser.members { key, parser throws(JSONSyntaxError) in
            written.append(try parser.string(key))
            _ = try parser.value()
        }

        // Then the reader's keys are those, in that order, named as in messages
        #expect(RecordKey.allCases.map { "\($0.name)" } == written)
        #expect(RecordKey.allCases.map { "\($0)" } == written)
    }
}

extension FetchRecordReaderTests {
    @Test func blankLinesAndCRLFEndingsAreNoRecords() async throws {
        // Given JSON lines with a blank line first, between records and at
        // the end, and a record ended by \r\n
        let lines = Self.fetches.map(FetchJSON.string)
        let data = Data(("\n" + lines[0] + "\r\n\n" + lines[1] + "\n" + lines[2] + "\n\n").utf8)

        // When it is read with every chunk size
        let reads = try await runOnDedicatedThread {
            try (1...data.count).map { chunkSize in try Self.read(data, chunkSize: chunkSize).fetches }
        }

        // Then each read gives the three fetches and nothing else
        for (chunkSize, fetches) in zip(1..., reads) {
            #expect(fetches == Self.fetches, "chunk size \(chunkSize)")
        }
    }

    @Test(arguments: ["[]", "[\n]\n", " [ ] ", "\n[]\n\n"])
    func anEmptyArrayIsNoRecords(_ text: String) throws {
        // Given an export of no fetches, as a JSON array
        // When it is read
        let read = try Self.read(Data(text.utf8), chunkSize: 1)

        // Then there is no record, and no error
        #expect(read.fetches.isEmpty)
    }
}
