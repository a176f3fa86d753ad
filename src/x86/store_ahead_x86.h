/* store_ahead_x86.h - prefetching for writing the lines a loop of masked (partial-line) stores will reach.
 *
 * On Zen 5 a masked store that leaves part of its 64 bytes out, to a line
 * that is not in L2, merges slowly: a loop of them covering a buffer once
 * (48 bytes a store, overlapping) wrote 14-15 GB/s at 64 MiB and 28-31 at
 * 16 MiB, where plain stores of the same pattern wrote 32 and 67, and
 * masked stores with all 64 lanes 30 (a test loop, 2026-11-30). Fetching
 * the line ahead for writing restores them: 33-39 GB/s at 64 MiB with the
 * prefetch 256 to 4096 bytes ahead, 69-94 at 16 MiB. In L2 (1 MiB) the
 * masked stores ran at 0.75-1.07x the plain ones without it.
 *
 * A loop calls tmv_store_ahead(p) beside each masked store at p whose mask
 * may be partial; p + TMV_STORE_AHEAD_BYTES is where it writes soon when it
 * writes its output in ascending order (a prefetch does not fault, so one
 * past the output is harmless). fill_pattern's rows under 256 bytes take
 * it (TILE inner 3x2 f64 at 64 MiB, rows of 48 bytes: 0.30 -> 0.50 x best
 * copy; 3x3 f64, 72 bytes, no longer streamed: 0.26 -> 0.59);
 * copy_permute's masked last vectors with it changed nothing measurable
 * (its DRAM cases are bound by something else), so they do not.
 * transpose_small, whose blocks store in steps of their own, fetches the
 * same distance ahead in whole blocks (tmv_ahead_in_blocks). */
#ifndef TMV_STORE_AHEAD_X86_H
#define TMV_STORE_AHEAD_X86_H

#include <stdint.h>

#define TMV_STORE_AHEAD_BYTES 1024

/* Fetches the line at p for writing. */
__attribute__((always_inline)) static inline void tmv_prefetch_for_write(const void *p)
{
    __builtin_prefetch(p, 1, 3);
}

__attribute__((always_inline)) static inline void tmv_store_ahead(const void *p)
{
    tmv_prefetch_for_write((const char *)p + TMV_STORE_AHEAD_BYTES);
}

/* A loop over blocks `step` bytes apart that prefetches about `bytes`
 * ahead: that distance in whole blocks, so each prefetch lands where a
 * later block's access will be (0 for a step of 0, where no block is
 * ahead). copy_permute, transpose_small. */
static inline uint64_t tmv_ahead_in_blocks(uint64_t bytes, uint64_t step)
{
    return step == 0 ? 0 : (bytes + step - 1) / step * step;
}

#endif
