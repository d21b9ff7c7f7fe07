/// A failure a command explains in its own words (printed after "Error: ", status 1).
public struct CommandError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
