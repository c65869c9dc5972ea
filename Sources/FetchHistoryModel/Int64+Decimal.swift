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
    ///
    /// A span, not `some Collection`: a generic function of this module is not specialized
    /// in the modules that call it, and read through the collection's witnesses an import
    /// took half as long again.
    package static func decimal(_ text: Span<UInt8>) -> Result<Int64, DecimalFailure> {
        let isNegative = !text.isEmpty && text[0] == UInt8(ascii: "-")
        var index = isNegative ? 1 : 0
        guard index < text.count else { return .failure(.notAWholeNumber) }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return .failure(.notAWholeNumber) }
            let (tens, tensOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = tens.addingReportingOverflow(UInt64(digit))
            magnitude = sum
            overflow = overflow || tensOverflow || sumOverflow
            index += 1
        }
        guard !overflow, magnitude <= (isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)) else { return .failure(.outOfRange) }
        return .success(isNegative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude))
    }
}
