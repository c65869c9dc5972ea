extension Int64 {
    /// Why bytes are not a decimal `Int64`.
    package enum DecimalFailure: Error {
        /// Empty, or a byte that is not a digit (after an optional leading minus).
        case notAWholeNumber
        /// Digits past `Int64`'s range.
        case outOfRange
    }

    /// An optional minus and ASCII digits, read from the bytes: an import and a pull read
    /// several for every row, where making a String of each first cost more than the rest.
    package static func decimal(_ text: some Collection<UInt8>) -> Result<Int64, DecimalFailure> {
        let isNegative = text.first == UInt8(ascii: "-")
        let digits = text.dropFirst(isNegative ? 1 : 0)
        guard !digits.isEmpty else { return .failure(.notAWholeNumber) }
        var magnitude: UInt64 = 0
        var overflow = false
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return .failure(.notAWholeNumber) }
            let (tens, tensOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = tens.addingReportingOverflow(UInt64(digit))
            magnitude = sum
            overflow = overflow || tensOverflow || sumOverflow
        }
        guard !overflow, magnitude <= (isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)) else { return .failure(.outOfRange) }
        return .success(isNegative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude))
    }
}
