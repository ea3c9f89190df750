/// A QR image that could not be made for a reason other than the request (memory, a library failure). It
/// becomes a 500 `internal` answer and is logged in full.
enum QRImageError: Error, CustomStringConvertible {
    /// libqrencode returned no symbol; `errno` says why.
    case encodingFailed(errno: Int32)
    /// libpng reported an error while writing.
    case pngFailed

    var description: String {
        switch self {
        case .encodingFailed(let errno): "libqrencode failed with errno \(errno)"
        case .pngFailed: "libpng failed to write the image"
        }
    }
}
