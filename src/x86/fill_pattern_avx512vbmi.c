/* fill_pattern_avx512vbmi.c - AVX-512 VBMI fills of rows with a pattern of any 1..64 bytes: vpermb replicates it, periods that do not divide a vector included. */
#define TMV_VEC_AVX512
#include "fill_x86.h"
#include "store_ahead_x86.h"

/* Lines per step of the store loop. */
#define GROUP 4

/* The constants for a pattern of p bytes, the kernel's state (made at
 * create: about 20 ns of permute tables, which per call were a quarter of
 * an 8 KiB fill). Vector j of a group holds the pattern from phase (64 j)
 * mod p; after a group, each vector moves on by 64 * GROUP bytes, which is
 * the permute `step` (identity when p divides it). */
typedef struct fill_ctx {
    __m512i   index[GROUP];   /* byte i: (64 j + i) mod p */
    __m512i   step;           /* byte i: (i + 64 GROUP) mod p */
    __m512i   p_vec;          /* p in every byte */
    __mmask64 pattern_mask;   /* the p bytes of one pattern */
    bool      advance;        /* p does not divide a group */
} fill_ctx;

/* (base + i) mod p for the 64 bytes i, by binary long division on 16-bit
 * lanes (base + i < 2^9 <= p << 9): a few dozen instructions instead of 64
 * divisions, which matters for the many small TILEs created per call. */
static __m512i mod_p_bytes(unsigned base, unsigned p)
{
    const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                          15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i lo = _mm512_add_epi16(iota, _mm512_set1_epi16((short)base));
    __m512i hi = _mm512_add_epi16(lo, _mm512_set1_epi16(32));
    for (int k = 8; k >= 0; k--) {
        /* as 16-bit values, x - s wraps above x exactly when x < s */
        __m512i s = _mm512_set1_epi16((short)(p << k));
        lo = _mm512_min_epu16(lo, _mm512_sub_epi16(lo, s));
        hi = _mm512_min_epu16(hi, _mm512_sub_epi16(hi, s));
    }
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(lo)), _mm512_cvtepi16_epi8(hi), 1);
}

static void fill_ctx_init(fill_ctx *c, uint64_t p)
{
    for (unsigned j = 0; j < GROUP; j++)
        c->index[j] = mod_p_bytes(64 * j, (unsigned)p);
    c->step = mod_p_bytes(64 * GROUP, (unsigned)p);
    c->p_vec = _mm512_set1_epi8((char)p);
    c->pattern_mask = _bzhi_u64(~0ull, (unsigned)p);
    c->advance = (64 * GROUP) % p != 0;
}

/* index + phase, mod p (both below p, so one conditional subtract: as bytes,
 * t - p wraps above t exactly when t < p). */
static inline __m512i rotate(__m512i index, __m512i phase, __m512i p)
{
    __m512i t = _mm512_add_epi8(index, phase);
    return _mm512_min_epu8(t, _mm512_sub_epi8(t, p));
}

/* The aligned groups of lines from out while *left holds a group, streamed
 * or stored: `stream` is a constant at each call, so each loop has one kind
 * of store. Returns where the groups end. */
__attribute__((always_inline)) static inline uint8_t *fill_groups(const fill_ctx *c, __m512i *v, uint8_t *out,
                                                                uint64_t *left, bool stream)
{
    for (; *left >= 64 * GROUP; *left -= 64 * GROUP, out += 64 * GROUP) {
        for (unsigned j = 0; j < GROUP; j++) {
            if (stream)
                _mm512_stream_si512((void *)(out + 64 * j), v[j]);
            else
                _mm512_store_si512((void *)(out + 64 * j), v[j]);
        }
        if (c->advance)
            for (unsigned j = 0; j < GROUP; j++)
                v[j] = _mm512_permutexvar_epi8(c->step, v[j]);
    }
    return out;
}

/* Fills len bytes (a multiple of p, more than a vector) of row with the
 * pattern (its first p bytes). A row shorter than a group of lines: as it
 * comes, a vector at a time from the row's start (each of index[j] its
 * phase), the last one masked, its lines fetched ahead (store_ahead_x86.h),
 * streamed or not: streamed, its lines were the neighbouring rows' too,
 * written by masked stores beside the streaming ones, and TILE inner 3x3
 * f64 at 64 MiB (rows of 72 bytes) ran 0.26 x best copy, 0.59 so (Zen 5,
 * 2026-11-30). Longer ones: one unaligned head
 * up to a line boundary, then aligned groups of lines (streamed if asked),
 * then masked stores for the rest; the pattern never leaves the registers.
 * Aligning a row of 72 bytes cost four permutes and rotates for the two
 * vectors it stores: TILE inner 3x3 f64 ran 3 ns a row, the portable
 * kernel's moves 1.3. */
static inline void fill_row(const fill_ctx *c, uint8_t *row, uint64_t len, __m512i pattern, bool stream)
{
    if (len < 64 * GROUP) {
        /* unrolled, so that each vector's index is a constant one of c's
         * (kept in a register, not read at every row) */
#pragma GCC unroll 4
        for (unsigned j = 0; j < GROUP; j++) {
            const __m512i v = _mm512_permutexvar_epi8(c->index[j], pattern);
            if (64 * (j + 1) <= len) {
                _mm512_storeu_si512((void *)(row + 64 * j), v);
                continue;
            }
            tmv_store_ahead(row + 64 * j);
            if (len > 64 * j)
                _mm512_mask_storeu_epi8(row + 64 * j, _bzhi_u64(~0ull, (unsigned)(len - 64 * j)), v);
            return;
        }
        return;
    }
    __m512i first = _mm512_permutexvar_epi8(c->index[0], pattern);
    uint64_t head = (uint64_t)(-(uintptr_t)row) & 63;
    __m512i v[GROUP];
    if (head != 0) {
        /* only the head: its line's rest may be streamed (see fill_x86.h) */
        _mm512_mask_storeu_epi8(row, _bzhi_u64(~0ull, (unsigned)head), first);
        /* head mod p, in every byte: index[0] holds i mod p at byte i */
        __m512i phase = _mm512_permutexvar_epi8(_mm512_set1_epi8((char)head), c->index[0]);
        for (unsigned j = 0; j < GROUP; j++)
            v[j] = _mm512_permutexvar_epi8(rotate(c->index[j], phase, c->p_vec), pattern);
    } else {
        v[0] = first;
        for (unsigned j = 1; j < GROUP; j++)
            v[j] = _mm512_permutexvar_epi8(c->index[j], pattern);
    }
    uint8_t *out = row + head;
    uint64_t left = len - head;
    if (stream)
        out = fill_groups(c, v, out, &left, true);
    else
        out = fill_groups(c, v, out, &left, false);
    for (unsigned j = 0; left > 0; j++) {
        uint64_t n = left < 64 ? left : 64;
        if (stream && n == 64)   /* a whole line of the row's rest: no read for ownership either */
            _mm512_stream_si512((void *)out, v[j]);
        else
            _mm512_mask_storeu_epi8(out, _bzhi_u64(~0ull, (unsigned)n), v[j]);
        out += n;
        left -= n;
    }
}

/* Rows of at most a vector, one masked store each, go in batches: each
 * batch's patterns are loaded before the batch before it is stored. TILE's
 * fills read each row's pattern from the output, just past the previous
 * row's store, and a load issued after a store whose 64 bytes it overlaps
 * (masked-off bytes included) waits for that store to complete: TILE 3d
 * [n,4,1] u8 by {1,3,3}, whose fill has rows of 24 bytes, took 5.9 ns a row
 * row by row and 1.5 from a separate source. Loading SHORT_BATCH rows ahead
 * of the stores keeps the loads clear of them for rows of 16 bytes or more.
 * The order is free: no step reads what it writes itself (a parallel
 * execute runs a step's rows in any order too). */
#define SHORT_BATCH 8

/* The walk's current row of at most a vector, its pattern from phase 0. */
static inline __m512i short_row(const fill_ctx *c, const tmv_walk *w, const uint8_t *src)
{
    return _mm512_permutexvar_epi8(c->index[0], _mm512_maskz_loadu_epi8(c->pattern_mask, src + w->src));
}

/* The patterns of the walk's next SHORT_BATCH rows into v, their places into out. */
static inline void load_batch(const fill_ctx *c, tmv_walk *w, const uint8_t *src, uint8_t *dst,
                              __m512i v[SHORT_BATCH], uint8_t *out[SHORT_BATCH])
{
#pragma GCC unroll 8
    for (unsigned i = 0; i < SHORT_BATCH; i++) {
        v[i] = short_row(c, w, src);
        out[i] = dst + w->dst;
        tmv_walk_next(w);
    }
}

static void fill_short_rows(const fill_ctx *c, tmv_walk *w, uint64_t rows, uint64_t len, const uint8_t *src,
                            uint8_t *dst)
{
    const __mmask64 m = _bzhi_u64(~0ull, (unsigned)len);
    if (rows >= SHORT_BATCH) {
        __m512i v[SHORT_BATCH], next[SHORT_BATCH];
        uint8_t *out[SHORT_BATCH], *next_out[SHORT_BATCH];
        load_batch(c, w, src, dst, v, out);
        for (rows -= SHORT_BATCH; rows >= SHORT_BATCH; rows -= SHORT_BATCH) {
            load_batch(c, w, src, dst, next, next_out);
#pragma GCC unroll 8
            for (unsigned i = 0; i < SHORT_BATCH; i++) {
                tmv_store_ahead(out[i]);
                _mm512_mask_storeu_epi8(out[i], m, v[i]);
                v[i] = next[i];
                out[i] = next_out[i];
            }
        }
#pragma GCC unroll 8
        for (unsigned i = 0; i < SHORT_BATCH; i++)
            _mm512_mask_storeu_epi8(out[i], m, v[i]);
    }
    for (; rows > 0; rows--, tmv_walk_next(w))
        _mm512_mask_storeu_epi8(dst + w->dst, m, short_row(c, w, src));
}

_Static_assert(sizeof(fill_ctx) <= TMV_KERNEL_STATE_BYTES, "fill_ctx fits a kernel's state");

void tmv_fill_pattern_avx512vbmi_prepare(const tmv_copy_shape *s, void *state)
{
    fill_ctx_init((fill_ctx *)state, s->elem_bytes);
}

/* Rows shorter than a group of vectors are stored masked, never streamed
 * (fill_row). */
bool tmv_fill_pattern_avx512vbmi_streams(const tmv_copy_shape *s)
{
    return s->sizes[s->rank - 1] * s->elem_bytes >= 64 * GROUP;
}

void tmv_fill_pattern_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t in = s->rank - 1;
    const uint64_t len = s->sizes[in] * s->elem_bytes;
    const bool stream = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    /* a copy: read through the state, its vectors would be read again after
     * every store (it may alias them) */
    const fill_ctx c = *(const fill_ctx *)s->state;
    tmv_walk walk;
    tmv_walk_init(&walk, s, in);
    if (len <= 64) {
        fill_short_rows(&c, &walk, tmv_shape_bytes(s) / len, len, src, dst);
        return;
    }
    /* each row's pattern loaded before the row before it is stored, for the
     * same reason as the short rows' batches */
    __m512i pattern = _mm512_maskz_loadu_epi8(c.pattern_mask, src + walk.src);
    uint8_t *row = dst + walk.dst;
    bool more;
    do {
        const __m512i this_pattern = pattern;
        uint8_t *this_row = row;
        if ((more = tmv_walk_next(&walk))) {
            pattern = _mm512_maskz_loadu_epi8(c.pattern_mask, src + walk.src);
            row = dst + walk.dst;
        }
        fill_row(&c, this_row, len, this_pattern, stream);
    } while (more);
    if (stream)
        _mm_sfence();
}

/* Periods of up to a vector but the powers of two (broadcasts need no
 * permutes; through this kernel's copy of that code they measured 20% slower
 * on tile inner/16x8/u8) and the short periods fill_period/avx2 takes
 * (its lane-local shuffles measured faster: inner/3x64/u8 1.16 vs 0.78 x
 * memcpy at L2), in outputs of at least FILL_MIN_BYTES: below that the ~20
 * ns of fill_ctx_init outweighed the permutes' gain (overhead/tile/2x3/f32/
 * tiny: 59 ns here, 36 through the portable copy), measured when it ran at
 * every call; since it runs at create (the kernel's state) neither limit
 * was measured again. */
#define FILL_MIN_BYTES 1024
bool tmv_fill_pattern_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    return fill_is_pattern_row(s) && s->elem_bytes <= 64 && !fill_shape_pow2(s) && !fill_shape_period(s) &&
           tmv_shape_bytes(s) >= FILL_MIN_BYTES;
}
