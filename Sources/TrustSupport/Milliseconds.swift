/// Milliseconds with one decimal, `12.3`: the timings every report and screen prints.
/// - Parameter v: Milliseconds.
/// - Returns: The text, without a unit.
public func formatMilliseconds(_ v: Double) -> String {
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
