#ifndef VOW_CZLIB_SHIM_H
#define VOW_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro, which Swift cannot call: this is it as a function. */
static inline int vow_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
