#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

/// A growable byte buffer that `cpng_write_gray1` fills; release it with `cpng_buffer_free`.
struct cpng_buffer {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
};

/// Appends libpng's output to the `cpng_buffer` in the write pointer; grows it by doubling.
static inline void cpng_append(png_structp png, png_bytep data, size_t length) {
    struct cpng_buffer *buffer = (struct cpng_buffer *)png_get_io_ptr(png);
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity == 0 ? 4096 : buffer->capacity;
        while (capacity < buffer->count + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
}

/// The output is in memory: nothing to flush.
static inline void cpng_flush(png_structp png) { (void)png; }

/// Replaces libpng's default error handler, which prints to stderr before jumping back.
static inline void cpng_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

/// Replaces libpng's default warning handler, which prints to stderr.
static inline void cpng_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Replaces the `png_create_write_struct` / `setjmp(png_jmpbuf(png))` / `png_set_write_fn` / `png_write_*`
/// sequence, which Swift cannot call: libpng reports errors with `longjmp`. Writes a `width` × `height`
/// 1-bit grayscale PNG (0 = black, 1 = white, most significant bit first) from `height` rows of `row_bytes`
/// bytes each into `out` (which must start zeroed). Returns 0 on success; on failure returns -1 and leaves
/// `out` empty.
static inline int cpng_write_gray1(const unsigned char *pixels, uint32_t width, uint32_t height, size_t row_bytes,
                                   struct cpng_buffer *out) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, cpng_error, cpng_warning);
    if (png == NULL) return -1;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(out->bytes);
        out->bytes = NULL;
        out->count = 0;
        out->capacity = 0;
        return -1;
    }
    png_set_write_fn(png, out, cpng_append, cpng_flush);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * row_bytes));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

/// Releases the bytes of a `cpng_buffer` filled by `cpng_write_gray1`.
static inline void cpng_buffer_free(struct cpng_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = 0;
    buffer->capacity = 0;
}

#endif
