/* kernels_neon.h - declarations of the NEON kernels, one block per source file, and the set they are built as. */
#ifndef TMV_KERNELS_NEON_H
#define TMV_KERNELS_NEON_H

#include "../kernels.h"

/* The same sources are the native "neon" set on aarch64 and, built through
 * SIMDe's emulation on x86, the "neon-simde" set (CMake then defines
 * TMV_HAVE_NEON_SIMDE_KERNELS for the generic files). The kernel list takes
 * the set and the name suffix from here. */
#if defined(TMV_HAVE_NEON_SIMDE_KERNELS)
#define TMV_NEON_SET TMV_ISA_NEON_SIMDE
#define TMV_NEON_NAME(kernel) kernel "/neon-simde"
#else
#define TMV_NEON_SET TMV_ISA_NEON
#define TMV_NEON_NAME(kernel) kernel "/neon"
#endif

/* interleave_neon.c: SPACE_TO_DEPTH / DEPTH_TO_SPACE transpose blocks, B = 2..4, widths 1, 2, 4, 8 */
bool tmv_copy_accepts_deinterleave_neon(const tmv_copy_shape *s);
void tmv_copy_deinterleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_interleave_neon(const tmv_copy_shape *s);
void tmv_copy_interleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

/* fill_neon.c: TILE broadcast of a period of up to 64 bytes */
bool tmv_copy_accepts_fill_neon(const tmv_copy_shape *s);
void tmv_copy_fill_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

/* rows_neon.c: row-wise JOIN / SPLIT, equal one-element pieces and short pieces */
bool tmv_join_rows_accepts_interleave_neon(const tmv_rows_shape *s);
void tmv_join_rows_interleave_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_split_rows_accepts_deinterleave_neon(const tmv_rows_shape *s);
void tmv_split_rows_deinterleave_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
bool tmv_join_rows_accepts_short_neon(const tmv_rows_shape *s);
void tmv_join_rows_short_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_split_rows_accepts_short_neon(const tmv_rows_shape *s);
void tmv_split_rows_short_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);

/* gather_neon.c: GATHER_ND of contiguous slices */
bool tmv_gather_accepts_neon(const tmv_gather_shape *s);
tmv_status tmv_gather_neon(const tmv_gather_shape *s, const uint8_t *input, const uint8_t *indices,
                           uint8_t *output);

#endif
