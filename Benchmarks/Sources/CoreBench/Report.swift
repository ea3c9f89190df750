/// One line of the benchmark output, tab-separated so `scripts/bench-run` can read it:
/// `group  name  value  unit  baselineName  baselineValue  note`.
struct Row {
    var group: String
    var name: String
    var value: Double
    var unit = "ns/op"
    var baselineName = ""
    var baselineValue: Double?
    var note = ""

    /// Prints the row and flushes, so a long run shows progress.
    func print() {
        let baseline = baselineValue.map { format($0) } ?? ""
        Swift.print([group, name, format(value), unit, baselineName, baseline, note].joined(separator: "\t"))
    }

    private func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
