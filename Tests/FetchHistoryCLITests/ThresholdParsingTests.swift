@testable import FetchHistoryCLI
import FetchHistory
import Testing

/// `--threshold EXPR` read and checked as values: what each figure takes,
/// exact rates, and no evidence never passing.
@Suite("A threshold's expression, read and checked")
struct ThresholdParsingTests {
    @Test(arguments: [
        ("p95<500ms", "p95<500ms"), (" failure-rate <= 0.5% ", "failure-rate<=0.5%"), ("COUNT>=100", "count>=100"),
        ("max>2s", "max>2s"),
    ])
    func anExpressionReadsBackAsItWasMeant(_ text: String, _ shown: String) throws {
        #expect(try Threshold(parsing: text).description == shown)
    }

    @Test(arguments: [
        ("p95 500ms", Threshold.ParseError.noComparison),
        ("p42<1s", .unknownFigure("p42")),
        ("count>=1.5", .notACount(.count)),
        ("failure-rate<0.01", .notARate(.failureRate)),
        ("p99<500", .notADuration(.p99)),
    ])
    func aMalformedExpressionSaysWhatWasExpected(_ text: String, _ error: Threshold.ParseError) {
        #expect(throws: error) { try Threshold(parsing: text) }
    }

    @Test func aRateIsComparedExactlyAndAFigureWithNothingToMeasureCrosses() throws {
        // Given a limit of 1% and one failure in 100 decided fetches (and a cancel, which is not decided)
        let threshold = try Threshold(parsing: "failure-rate<=1%")
        let counts: [FetchStatus: Int] = [.succeeded: 99, .failed: 1, .cancelled: 5]

        // When it is checked, and a p95 limit is checked with no succeeded fetch
        let value = threshold.value(counts: counts, latency: nil)
        let p95 = try Threshold(parsing: "p95<1s")

        // Then 1 of 100 is exactly 1%, which meets <=1%; the p95 has no value and crosses
        #expect(value == .rate(numerator: 1, denominator: 100))
        #expect(threshold.isMet(by: value))
        #expect(try !Threshold(parsing: "failure-rate<1%").isMet(by: value))
        #expect(p95.value(counts: [.failed: 2], latency: nil) == nil && !p95.isMet(by: nil))
    }
}
