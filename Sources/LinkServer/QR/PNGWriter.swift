import CPNG
import LinkCore

/// Writes a ``QRBitmap`` as a 1-bit grayscale PNG in memory with libpng (through `cpng_write_gray1`, which keeps
/// libpng's `setjmp` error handling on the C side).
enum PNGWriter {
    static func png(_ bitmap: QRBitmap) throws -> [UInt8] {
        var buffer = cpng_buffer(bytes: nil, count: 0, capacity: 0)
        defer { cpng_buffer_free(&buffer) }
        let result = bitmap.pixels.withUnsafeBufferPointer { pixels in
            cpng_write_gray1(pixels.baseAddress, UInt32(bitmap.size), UInt32(bitmap.size), bitmap.rowBytes, &buffer)
        }
        guard result == 0, let bytes = buffer.bytes else { throw QRImageError.pngFailed }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
    }
}
