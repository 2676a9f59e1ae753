#ifndef VOW_CBROTLI_SHIM_H
#define VOW_CBROTLI_SHIM_H
/* libbrotli's decoder (Debian's libbrotli-dev), for `Content-Encoding: br` bodies. */
#include <brotli/decode.h>
#endif
