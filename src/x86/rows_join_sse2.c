/* rows_join_sse2.c - row-wise JOIN on SSE2: an unpack network for 2, 4 or 8 equal packed pieces of 1..8 bytes, fixed-size column moves for any pieces up to 64 bytes, streaming copies of pieces of 4 KiB and more to memory (the kernels: rows_x86.h). */
#define TMV_VEC_SSE2
#include "rows_x86.h"
#include "rows_zip_sse2.h"

TMV_JOIN_ROWS_KERNEL(zip_sse2, tmv_rows_zip_sse2_shape, tmv_rows_zip_lanes, stateless)
TMV_JOIN_ROWS_KERNEL(stream_sse2, tmv_rows_long_shape, tmv_rows_stream, stateless)
TMV_JOIN_ROWS_KERNEL(columns_sse2, tmv_rows_all_narrow, tmv_rows_narrow_columns, stateless)
TMV_JOIN_ROWS_STREAMS(columns_sse2, tmv_rows_columns_streams)
