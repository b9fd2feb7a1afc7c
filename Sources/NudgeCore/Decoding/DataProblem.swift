/// Something wrong with a file's content, with the place a person must look to fix it.
public struct DataProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where in the file the problem is.
    public enum Place: Equatable, Sendable {
        /// The file as a whole (it is not JSON at all, or it is unreadable).
        case file
        /// A JSON syntax error: 1-based line and column.
        case position(line: Int, column: Int)
        /// A value that parsed but is not valid here.
        case keyPath(KeyPath)
    }

    var file: String
    var place: Place
    var message: String

    public init(file: String, place: Place, message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    /// `error` as a problem of `file`: itself when it is one, else a problem of the whole file.
    public init(_ error: Error, file: String) {
        self = error as? DataProblem ?? DataProblem(file: file, place: .file, message: "\(error)")
    }

    /// `alarms.json:3:14: expected ...` for syntax, `alarms.json: alarms[1].time: ...` for values.
    public var description: String {
        switch place {
        case .file:
            return "\(file): \(message)"
        case let .position(line, column):
            return "\(file):\(line):\(column): \(message)"
        case .keyPath(let path):
            return path.isRoot ? "\(file): \(message)" : "\(file): \(path): \(message)"
        }
    }
}
