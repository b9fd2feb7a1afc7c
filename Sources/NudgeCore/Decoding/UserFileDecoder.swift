import Foundation

/// Decodes the bytes of each user file into model values, collecting every problem with its place.
public enum UserFileDecoder {
    /// Parses `data` and hands the root object to `read`; a value only when there was no problem at all.
    static func decode<Value>(_ file: UserFile, _ data: Data, knownKeys: Set<String>,
                              _ read: (ObjectReader) -> Value) -> (Value?, FileReport) {
        let document = DocumentReader(file: file.fileName)
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            let problem = DataProblem(file: file.fileName, place: .position(line: error.line, column: error.column),
                                      message: error.message)
            return (nil, FileReport(file: file, problems: [problem]))
        } catch {
            let problem = DataProblem(file: file.fileName, place: .file, message: "\(error)")
            return (nil, FileReport(file: file, problems: [problem]))
        }
        guard let root = document.root(json, knownKeys: knownKeys) else {
            return (nil, FileReport(file: file, problems: document.problems))
        }
        let value = read(root)
        let report = FileReport(file: file, problems: document.problems, unknownKeys: document.unknownKeys)
        return (report.isValid ? value : nil, report)
    }

    public static func settings(_ data: Data) -> (Settings?, FileReport) {
        decode(.settings, data, knownKeys: Settings.topLevelKeys) { Settings($0) }
    }

    public static func pets(_ data: Data) -> ([Pet]?, FileReport) {
        decode(.laundry, data, knownKeys: ["pets"]) { root in
            let elements = root.elements("pets")
            let pets = elements.compactMap { element in
                ObjectReader(element.value, at: element.path, in: root.document).flatMap(Pet.init)
            }
            root.document.checkUnique(elements.compactMap { element in
                element.value["id"]?.stringValue.map { ($0, element.path.appending("id")) }
            })
            return pets
        }
    }

    public static func alarms(_ data: Data) -> ([Alarm]?, FileReport) {
        decode(.alarms, data, knownKeys: ["alarms"]) { root in
            let elements = root.elements("alarms")
            let alarms = elements.compactMap { element in
                ObjectReader(element.value, at: element.path, in: root.document).flatMap(Alarm.init)
            }
            root.document.checkUnique(elements.compactMap { element in
                element.value["id"]?.stringValue.map { ($0, element.path.appending("id")) }
            })
            return alarms
        }
    }
}
