import GraphQLEngine

/// Applies a multipart request's `map` to the operation's variables: each mapped
/// path gets a reference to its file (GraphQL multipart request spec).
///
/// The variables are edited in place, one path at a time: every container on a path is taken
/// out of its parent while it changes, so it is never shared and never copied. A map naming
/// thousands of paths costs their total length, not thousands of copies of the variables.
enum UploadMap {
    struct Failure: Error { let message: String }

    static func apply(_ map: [String: [String]], files: [String: UploadedFile], to variables: inout JSONObject) throws(Failure) {
        var root = JSONValue.object(variables)
        variables = JSONObject()  // `root` now holds the only reference
        defer { if case .object(let updated) = root { variables = updated } }
        for (key, paths) in map.sorted(by: { $0.key < $1.key }) {
            guard files[key] != nil else { throw Failure(message: "The multipart map names file \"\(key)\", which was not sent.") }
            let reference: JSONValue = .object([GatewayScalars.uploadKey: .string(key)])
            for path in paths {
                let parts = path.split(separator: ".").map(String.init)
                guard parts.first == "variables", parts.count >= 2 else {
                    throw Failure(message: "The multipart map path \"\(path)\" must start with \"variables.\".")
                }
                guard set(reference, at: parts[1...], in: &root) else {
                    throw Failure(message: "The multipart map path \"\(path)\" does not name a variable of the operation.")
                }
            }
        }
    }

    static func set(_ value: JSONValue, at path: ArraySlice<String>, in target: inout JSONValue) -> Bool {
        guard let head = path.first else {
            target = value
            return true
        }
        switch target {
        case .object(var object):
            target = .null  // `object` is now the only reference to its storage
            defer { target = .object(object) }
            var child = object[head] ?? .null
            guard path.count == 1 || !child.isNull else { return false }
            if path.count > 1 { object[head] = .null }  // `child` is now the only reference to its storage
            let done = set(value, at: path.dropFirst(), in: &child)
            object[head] = child
            return done
        case .array(var items):
            target = .null
            defer { target = .array(items) }
            guard let index = Int(head), items.indices.contains(index) else { return false }
            return set(value, at: path.dropFirst(), in: &items[index])
        default:
            return false
        }
    }
}
