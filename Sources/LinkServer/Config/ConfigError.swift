/// A setting that stops the start; the process prints it and exits with code 2.
struct ConfigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
