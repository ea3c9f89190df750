import Foundation

/// The console's static files (API.md §13): `Resources/console/*`, read once at start, each with its content type
/// and an `ETag` (`"` + the first 16 hex digits of the body's SHA-256 + `"`).
struct ConsoleAssets: Sendable {
    struct Asset: Sendable {
        let contentType: String
        let body: [UInt8]
        let etag: String

        init(contentType: String, body: [UInt8]) {
            self.contentType = contentType
            self.body = body
            etag = EntityTag.sha256(of: body)
        }
    }

    /// Assets by file name (`index.html`, `console.js`, …).
    let files: [String: Asset]

    init(files: [String: Asset]) {
        self.files = files
    }

    /// The files bundled with the executable; empty when the bundle is missing.
    static let bundled: ConsoleAssets = {
        guard let folder = Bundle.module.url(forResource: "console", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return ConsoleAssets(files: [:]) }
        var files: [String: Asset] = [:]
        for name in names {
            guard let type = contentType(of: name),
                let data = try? Data(contentsOf: folder.appendingPathComponent(name))
            else { continue }
            files[name] = Asset(contentType: type, body: Array(data))
        }
        return ConsoleAssets(files: files)
    }()

    /// The content type served for a file name, by extension; `nil` for files that are not served.
    static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), !name.hasPrefix(".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        default: return nil
        }
    }
}
