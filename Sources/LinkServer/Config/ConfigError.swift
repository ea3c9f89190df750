/// A setting that stops the start; the process prints it and exits with code 2.
struct ConfigError: Error, CustomStringConvertible {
    var description: String

    /// `description` with its control characters escaped (`\n`, `\u{1B}`…): it is printed as one line, and a value
    /// it quotes (an environment variable, a file's text) must not write lines of its own into the log.
    init(_ description: String) {
        self.description = ConfigError.oneLine(description)
    }

    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                escaped += scalar.escaped(asASCII: true)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
