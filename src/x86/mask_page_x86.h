/* mask_page_x86.h - AVX-512 loads and stores of a call's last bytes (the first n of a vector) that never reach into a page none of those bytes lie in.
 *
 * A masked load or store whose 64-byte window reaches into a page that is
 * not present (never touched, unmapped or protected) takes a microcode
 * assist although the mask leaves that page's bytes out: on Zen 4 a load
 * took 142 ns and a store 152, against 0.5 ns in a present page. A row
 * kernel whose last masked block ends within 64 bytes of such a page paid
 * it on every call: SPLIT inner 2x3B u8 at 8 KiB ran 238 ns or 86
 * depending on whether the benchmark's buffer had a touched page after it,
 * and aligned tensors (a page-aligned arena, a mapped file) end on a page
 * boundary. These take the masked instruction unless its window crosses a
 * page boundary past the n bytes; then they copy the n bytes through the
 * stack, out of line (a byte at a time, into present pages, cost SPLIT
 * inner 3x8B u8 at 8 KiB 87 -> 100 ns; memcpy a few ns).
 *
 * Only for the last rows of a call (once per buffer end): in the loops
 * that run per row or per block (the interleave rows' tails, the permute's
 * windows) the test and the call it may make cost the S2D / D2S sweep rows
 * at 8 KiB 0.68-0.89x of their time (the call makes every vector register
 * held across it a spill; inlined, the byte loop was slower still).
 *
 * Only where AVX-512BW is on (the header is empty otherwise). */
#ifndef TMV_MASK_PAGE_X86_H
#define TMV_MASK_PAGE_X86_H

#if defined(__AVX512BW__)

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define TMV_PAGE_BYTES 4096u   /* the smallest x86 page: larger ones are multiples of it */

/* True if the first n bytes at p (n clamped to 0..64) end before a page
 * boundary that the 64-byte window at p crosses. */
static inline bool tmv_first_leaves_a_page(const void *p, int64_t n)
{
    const unsigned off = (unsigned)((uintptr_t)p & (TMV_PAGE_BYTES - 1));
    return off > TMV_PAGE_BYTES - 64 && n < (int64_t)(TMV_PAGE_BYTES - off);
}

static inline __mmask64 tmv_first_mask(int64_t n)
{
    return n <= 0 ? 0 : n >= 64 ? ~(__mmask64)0 : _bzhi_u64(~0ull, (unsigned)n);
}

/* The first n bytes at p copied through the stack (the others zero). */
__attribute__((cold, noinline)) static __m512i tmv_load_first_copied(const void *p, int64_t n)
{
    uint8_t bytes[64] = {0};
    if (n > 0)
        memcpy(bytes, p, (size_t)n);
    return _mm512_loadu_si512(bytes);
}

/* The first n bytes of v copied to p through the stack. */
__attribute__((cold, noinline)) static void tmv_store_first_copied(void *p, int64_t n, __m512i v)
{
    uint8_t bytes[64];
    _mm512_storeu_si512(bytes, v);
    if (n > 0)
        memcpy(p, bytes, (size_t)n);
}

/* The first n bytes at p (n clamped to 0..64), the rest zero. */
static inline __m512i tmv_load_first(const void *p, int64_t n)
{
    return __builtin_expect(tmv_first_leaves_a_page(p, n), 0) ? tmv_load_first_copied(p, n)
                                                               : _mm512_maskz_loadu_epi8(tmv_first_mask(n), p);
}

/* The first n bytes of v (n clamped to 0..64) stored to p. */
static inline void tmv_store_first(void *p, int64_t n, __m512i v)
{
    if (__builtin_expect(tmv_first_leaves_a_page(p, n), 0))
        tmv_store_first_copied(p, n, v);
    else
        _mm512_mask_storeu_epi8(p, tmv_first_mask(n), v);
}

#endif
#endif
