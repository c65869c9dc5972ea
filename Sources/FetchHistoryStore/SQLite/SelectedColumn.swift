import FetchHistoryModel

/// The columns of a SELECT, as an enum whose cases are named for them and
/// numbered in the order the SELECT lists them (`selectList`): a row is
/// read by a column's name, and the list and the reading cannot drift apart.
///
/// ```swift
/// enum PersonColumn: Int32, SelectedColumn {
///     case id, name
///     var expression: String { switch self { case .id: "id"; case .name: "name" } }
/// }
/// let sql = "SELECT \(PersonColumn.selectList) FROM person"
/// // … row.text(PersonColumn.name)
/// ```
package protocol SelectedColumn: CaseIterable, RawRepresentable where RawValue == Int32 {
    /// What the SELECT lists for this column: a column name or an expression.
    var expression: String { get }
}

extension SelectedColumn {
    /// Every case's expression, in the order of the cases' numbers.
    package static var selectList: String {
        allCases.sorted { $0.rawValue < $1.rawValue }.map(\.expression).joined(separator: ", ")
    }
}

extension Row {
    package func isNull(_ column: some SelectedColumn) -> Bool { isNull(column.rawValue) }
    package func int64(_ column: some SelectedColumn) -> Int64 { int64(column.rawValue) }
    package func optionalInt64(_ column: some SelectedColumn) -> Int64? { optionalInt64(column.rawValue) }
    package func text(_ column: some SelectedColumn) -> String { text(column.rawValue) }
    package func optionalText(_ column: some SelectedColumn) -> String? { optionalText(column.rawValue) }
    package func withUTF8<T>(_ column: some SelectedColumn, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try withUTF8(column.rawValue, body)
    }
    package func withOptionalUTF8<T>(_ column: some SelectedColumn, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        try withOptionalUTF8(column.rawValue, body)
    }
    func optionalFetchValue(_ column: some SelectedColumn, integer: (Int64) -> FetchValue) -> FetchValue? {
        optionalFetchValue(column.rawValue, integer: integer)
    }
}
