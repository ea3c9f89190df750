import Foundation

/// Reads QR images back with real tools: `zbarimg` (Debian `zbar-tools`) decodes, `rsvg-convert` (Debian
/// `librsvg2-bin`) rasterises SVG first. `scripts/install-deps` installs both. A missing tool fails the test
/// that needs it with a message saying what to install; it never skips.
enum QRDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The text of the one QR code in a PNG, exactly as encoded (without the newline `zbarimg` ends it with).
    static func decode(png: [UInt8]) throws -> String {
        let zbarimg = try tool("zbarimg", package: "zbar-tools")
        let file = try temporaryFile(png, suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (status, output) = try run(zbarimg, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file])
        guard status == 0 else { throw Failure(description: "zbarimg found no QR code (exit status \(status))") }
        var text = output
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SVG drawn as a PNG at its own `width` and `height`.
    static func rasterize(svg: [UInt8]) throws -> [UInt8] {
        let rsvg = try tool("rsvg-convert", package: "librsvg2-bin")
        let file = try temporaryFile(svg, suffix: ".svg")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (status, output) = try run(rsvg, ["--format", "png", file])
        guard status == 0, !output.isEmpty else { throw Failure(description: "rsvg-convert failed (\(status))") }
        return output
    }

    /// The path of an executable on `PATH` (or in `/usr/bin`), or a failure naming the package to install.
    static func tool(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(
            description:
                "\(name) is not installed: the QR tests decode images with it. Install the Debian package '\(package)' "
                + "(scripts/install-deps does)")
    }

    private static func temporaryFile(_ bytes: [UInt8], suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "linkserver-qr-" + UUID().uuidString + suffix
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Failure(description: "cannot write \(path)")
        }
        return path
    }

    /// Runs `executable` and returns its exit status and standard output (standard error is discarded: zbar
    /// complains there when no D-Bus is running).
    private static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(data))
    }
}

/// The fields of a PNG's `IHDR` chunk.
struct PNGHeader: Equatable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int

    /// Reads the header of `png`; `nil` when it is not a PNG.
    init?(_ png: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 33, Array(png[0..<8]) == signature, Array(png[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func uint32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        width = uint32(16)
        height = uint32(20)
        bitDepth = Int(png[24])
        colorType = Int(png[25])
    }

    init(width: Int, height: Int, bitDepth: Int, colorType: Int) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
    }
}
