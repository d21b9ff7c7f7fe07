/// A failure a command explains in its own words (printed after "Error: ", status 1).
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
