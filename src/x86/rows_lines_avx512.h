/* rows_lines_avx512.h - row-wise JOIN / SPLIT that writes each contiguous output a whole 64-byte vector at a time, each vector gathered by masked loads from the piece rows it spans (AVX-512BW; the kernels: rows_x86.h).
 *
 * The column moves write every piece of every row with stores of their
 * own: a 100-byte piece takes two overlapping 64-byte stores, most of
 * them across a cache line, so that JOIN inner/3x100B u8 at 1 MiB ran
 * 0.59 x memcpy and a memcpy per piece 0.38 (tmv-bench --tmv_sweep=full,
 * Intel Xeon, 2026-11-28). Here the output (JOIN's joined rows; each of
 * SPLIT's pieces) is written once, in order, one store per 64 bytes, and
 * each stretch of a vector that comes from one source row is one
 * merge-masked load: the loads' windows may reach past the stretch, and
 * AVX-512 suppresses faults on the lanes the mask leaves out.
 *
 * An output of rows of W bytes repeats its layout every lcm(W, 64) bytes:
 * L = W / gcd(W, 64) vectors hold R = 64 / gcd(W, 64) rows. At create the
 * prepare lays out, for each vector of that period, its stretches (source,
 * offset from the source's period start, lane mask), padded to the same
 * count S for every vector with empty masks, so that each vector runs the
 * same loop; SPLIT's pieces of one width share one layout, each laid out
 * from its own first column. A shape whose layouts do not fit the kernel
 * state, or that needs more than TMV_ROWS_LINES_SLOTS_MAX stretches a
 * vector, is not taken.
 *
 * A masked load whose window reaches into a page that is not present costs
 * a microcode assist although the mask leaves that page out
 * (mask_page_x86.h). Windows reach at most 63 bytes past their stretch, so
 * only vectors that draw on the rows near either end of a source can reach
 * outside its tensor; those vectors take each load whose window crosses a
 * page boundary through the stack instead. */
#ifndef TMV_ROWS_LINES_AVX512_H
#define TMV_ROWS_LINES_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "mask_page_x86.h"
#include "rows_columns_x86.h"
#include "rows_long_x86.h"
#include "rows_zip_x86.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)

/* Most stretches a vector: pieces of 10 bytes and more (a vector spans at
 * most 64 / w + 2 of them). */
#define TMV_ROWS_LINES_SLOTS_MAX 8

/* One stretch of a vector: its lanes (a mask) come from source src at off
 * bytes from that source's period start, less the first lane; both in
 * where = off * 16 + src. The plan keeps the masks and the wheres in two
 * arrays, twelve bytes a stretch, so that the kernel state holds the 250
 * stretches of a 1000-byte piece's period. SPLIT inner/3x100B u8 at 1 MiB
 * took 23-24 us with a sixteen-byte record (offset, source, mask) and a
 * layout per piece, 19-20 us with the two arrays and one shared layout;
 * a mask rebuilt from a lane and a count at each load took 30 us, the two
 * in one packed twelve-byte record 25 us. */
#define TMV_ROWS_LINES_OFF_MAX (INT32_MAX / 16)

static inline unsigned tmv_rows_lines_src(int32_t where)
{
    return (unsigned)where & 15;
}

static inline intptr_t tmv_rows_lines_off(int32_t where)
{
    return (intptr_t)(where >> 4);   /* arithmetic: off may be negative */
}

/* One output's period: L vectors of S stretches each, from stretch first
 * (SPLIT's pieces of one width share theirs). */
typedef struct tmv_rows_lines_stream {
    uint32_t lines;   /* L */
    uint32_t slots;   /* S */
    uint32_t rows;    /* R: the output's rows in a period */
    uint32_t first;
} tmv_rows_lines_stream;

#define TMV_ROWS_LINES_HEADER (16 + TMV_ROWS_MAX_STREAMS * sizeof(tmv_rows_lines_stream))
#define TMV_ROWS_LINES_SEGS ((TMV_KERNEL_STATE_BYTES - TMV_ROWS_LINES_HEADER) / (sizeof(uint64_t) + sizeof(int32_t)))

/* The kernel state: JOIN has one output (the joined rows), SPLIT one per
 * piece, in piece order. */
typedef struct tmv_rows_lines_plan {
    uint32_t              streams;
    uint32_t              pad[3];
    tmv_rows_lines_stream stream[TMV_ROWS_MAX_STREAMS];
    uint64_t              mask[TMV_ROWS_LINES_SEGS];
    int32_t               where[TMV_ROWS_LINES_SEGS];
} tmv_rows_lines_plan;

/* Where one output's row comes from: `count` column ranges, each from a
 * source whose rows are `pitch` apart, from byte 0 of its row (the run
 * starts a SPLIT's source at its piece's column). */
typedef struct tmv_rows_lines_cols {
    unsigned count;
    uint64_t col[TMV_ROWS_MAX_STREAMS], bytes[TMV_ROWS_MAX_STREAMS];
    uint64_t pitch[TMV_ROWS_MAX_STREAMS];
} tmv_rows_lines_cols;

/* Output o's columns: JOIN's joined row is the pieces side by side, each
 * from its own buffer; SPLIT's piece o is one range of the joined row,
 * laid out from its own column, so that pieces of one width have one
 * layout. */
static inline void tmv_rows_lines_cols_of(const tmv_rows_shape *s, bool join, unsigned o, tmv_rows_lines_cols *c)
{
    if (join) {
        c->count = s->piece_count;
        for (unsigned p = 0; p < s->piece_count; p++) {
            c->col[p] = s->pieces[p].offset;
            c->bytes[p] = s->pieces[p].bytes;
            c->pitch[p] = s->pieces[p].pitch;
        }
    } else {
        c->count = 1;
        c->col[0] = 0;
        c->bytes[0] = s->pieces[o].bytes;
        c->pitch[0] = s->joined_pitch;
    }
}

/* gcd(w, 64): the largest power of two up to 64 that divides w (64 for 0). */
static inline uint64_t tmv_rows_lines_gcd64(uint64_t w)
{
    const unsigned zeros = w == 0 ? 6 : (unsigned)__builtin_ctzll(w);
    return 1ull << (zeros < 6 ? zeros : 6);
}

/* Lays out one output of rows of W bytes from columns c: its period's
 * stretches from mask and where (which have room for `room`), written only
 * if they are not NULL. False if they do not fit, need more than
 * TMV_ROWS_LINES_SLOTS_MAX a vector, or an offset past TMV_ROWS_LINES_OFF_MAX. */
static inline bool tmv_rows_lines_layout(const tmv_rows_lines_cols *c, uint64_t W, uint32_t room,
                                         tmv_rows_lines_stream *st, uint64_t *mask, int32_t *where)
{
    const uint64_t g = tmv_rows_lines_gcd64(W), L = W / g;
    if (L > room)
        return false;
    st->lines = (uint32_t)L;
    st->rows = (uint32_t)(64 / g);
    unsigned slots = 0;
    for (uint64_t j = 0; j < L; j++) {
        uint64_t pos = 64 * j;
        unsigned lane = 0, n = 0;
        while (lane < 64) {
            const uint64_t r = pos / W, col = pos % W;
            unsigned k = 0;
            while (k + 1 < c->count && !(col >= c->col[k] && col < c->col[k] + c->bytes[k]))
                k++;
            const uint64_t left = c->col[k] + c->bytes[k] - col;
            const unsigned len = left < 64 - lane ? (unsigned)left : 64 - lane;
            const int64_t off = (int64_t)(r * c->pitch[k] + (col - c->col[k])) - (int64_t)lane;
            if (n == TMV_ROWS_LINES_SLOTS_MAX || off > TMV_ROWS_LINES_OFF_MAX || (uint64_t)L * (n + 1) > room)
                return false;
            if (mask != NULL && st->slots > n) {
                mask[j * st->slots + n] = _bzhi_u64(~0ull, len) << lane;
                where[j * st->slots + n] = (int32_t)(off * 16 + k);
            }
            n++;
            lane += len;
            pos += len;
        }
        slots = n > slots ? n : slots;
    }
    if (mask == NULL)
        st->slots = slots;
    return true;
}

/* Lays out every output of s into pl (NULL: only checks that they fit). */
static inline bool tmv_rows_lines_plan_make(const tmv_rows_shape *s, bool join, tmv_rows_lines_plan *pl)
{
    const unsigned outputs = join ? 1 : s->piece_count;
    uint32_t used = 0;
    for (unsigned o = 0; o < outputs; o++) {
        tmv_rows_lines_cols c;
        tmv_rows_lines_stream st = {0};
        const uint64_t W = join ? s->joined_bytes : s->pieces[o].bytes;
        unsigned same = 0;
        while (same < o && s->pieces[same].bytes != W)
            same++;
        if (same < o) {
            if (pl != NULL)
                pl->stream[o] = pl->stream[same];
            continue;
        }
        tmv_rows_lines_cols_of(s, join, o, &c);
        if (!tmv_rows_lines_layout(&c, W, TMV_ROWS_LINES_SEGS - used, &st, NULL, NULL))
            return false;
        if ((uint64_t)st.lines * st.slots > TMV_ROWS_LINES_SEGS - used)
            return false;
        st.first = used;
        if (pl != NULL) {
            for (uint64_t i = used; i < used + (uint64_t)st.lines * st.slots; i++)
                pl->mask[i] = 0, pl->where[i] = 0;
            tmv_rows_lines_layout(&c, W, TMV_ROWS_LINES_SEGS - used, &st, pl->mask + used, pl->where + used);
            pl->stream[o] = st;
        }
        used += st.lines * st.slots;
    }
    if (pl != NULL)
        pl->streams = outputs;
    return true;
}

/* The shapes: up to 16 pieces whose outputs are contiguous (JOIN: packed
 * joined rows; SPLIT: packed pieces), not all whole lines, and whose
 * layouts fit; only once the step outgrows L1 or streams, and, below the
 * stream threshold, not where every piece is long enough for the long
 * moves' vector loop (rows_long_x86.h). Whole lines
 * (tmv_rows_whole_lines) the column moves store whole too, and kept ahead
 * of these (SPLIT inner/2x64B f32 at 1 MiB: 58 us against 67 here, memcpy
 * 50). In L1 a vector's table walk costs more than the column moves'
 * split stores: JOIN inner/3x100B u8 at 8 KiB took 301 ns here, 145 by the
 * columns (memcpy 83); at 32 KiB 1.77 us against 1.94, at 1 MiB 59
 * against 74 (memcpy 42), and at 64 MiB, streaming, 8.2-9.3 ms against 14
 * (memcpy 9.1; Intel Xeon, 2026-11-28, the kernels timed directly). Long
 * pieces the long moves took faster in cache: on Zen 5 at 1 MiB, JOIN and
 * SPLIT of 2, 3 or 8 pieces of 1000 bytes 26-29 us here against 19-20
 * (tmv-plan-regret --sizes=1MiB, 2026-11-30). */
static inline bool tmv_rows_lines_shape(const tmv_rows_shape *s, bool join)
{
    if (s->piece_count < 1 || s->piece_count > TMV_ROWS_MAX_STREAMS || s->joined_pitch == 0 || tmv_rows_whole_lines(s))
        return false;
    if (join && s->joined_pitch != s->joined_bytes)
        return false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].pitch == 0 || (!join && s->pieces[p].pitch != s->pieces[p].bytes))
            return false;
    const uint64_t bytes = s->rows * s->joined_bytes;
    if (bytes < s->tuning->stream_threshold && (2 * bytes <= tmv_rows_l1_bytes(s) || tmv_rows_all_long(s)))
        return false;
    return tmv_rows_lines_plan_make(s, join, NULL);
}

__attribute__((always_inline)) static inline bool tmv_rows_lines_join_shape(const tmv_rows_shape *s)
{
    return tmv_rows_lines_shape(s, true);
}

__attribute__((always_inline)) static inline bool tmv_rows_lines_split_shape(const tmv_rows_shape *s)
{
    return tmv_rows_lines_shape(s, false);
}

/* The kernels' prepare (rows_x86.h). */
static inline void tmv_rows_lines_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    _Static_assert(sizeof(tmv_rows_lines_plan) <= TMV_KERNEL_STATE_BYTES, "lines plan exceeds the kernel state");
    tmv_rows_lines_plan_make(s, join, state);
}

/* The stretch's bytes copied through the stack (its mask is one run of
 * lanes), for a window that crosses a page boundary. */
__attribute__((cold, noinline)) static __m512i tmv_rows_lines_load_copied(__m512i v, __mmask64 m, uintptr_t at)
{
    uint8_t bytes[64];
    const unsigned first = (unsigned)__builtin_ctzll(m);
    memcpy(bytes + first, (const void *)(at + first), (size_t)__builtin_popcountll(m));
    return _mm512_mask_loadu_epi8(v, m, bytes);
}

/* One stretch merged into v, base its source's period start; where careful, a window across a page
 * boundary goes through the stack. */
__attribute__((always_inline)) static inline __m512i tmv_rows_lines_load(__m512i v, uint64_t mask, int32_t where,
                                                                        uintptr_t base, __mmask64 keep, bool careful)
{
    const uintptr_t at = base + (uintptr_t)tmv_rows_lines_off(where);
    const __mmask64 m = mask & keep;
    if (careful) {
        if (m == 0)
            return v;
        if (__builtin_expect((at & (TMV_PAGE_BYTES - 1)) > TMV_PAGE_BYTES - 64, 0))
            return tmv_rows_lines_load_copied(v, m, at);
    }
    return _mm512_mask_loadu_epi8(v, m, (const void *)at);
}

/* One output being written: its layout, its sources' row 0 and their
 * bytes per period, and where it goes. */
typedef struct tmv_rows_lines_out {
    const tmv_rows_lines_stream *st;
    const uint64_t              *mask;         /* the plan's stretches */
    const int32_t               *where;
    const uintptr_t             *base;
    const uint64_t              *step;
    const uint64_t              *ahead;        /* JOIN's prefetch distances */
    unsigned                     sources;
    uint8_t                     *dst;
    uint64_t                     head, tail;   /* vectors [head, tail) need no care */
    uintptr_t                   *next;         /* SPLIT's next line to prefetch */
} tmv_rows_lines_out;

/* How far ahead of the loads each of JOIN's vectors prefetches, in bytes
 * of all its sources together: each source by its share of a row's bytes
 * (a piece of W_p of W joined bytes, W_p / W of this), from its first
 * stretch's address. The loads of one instruction walk every source in
 * turn, their windows reaching back into rows already read, and Zen 5's
 * prefetchers did not follow them: JOIN inner/3x100B u8 of 64 MiB ran 0.37
 * x best copy, 1.15 with the prefetch (tmv-bench --tmv_sweep=full,
 * 2026-11-30). SPLIT prefetches by blocks instead (below). Only where the
 * output streams (past the stream threshold): at 1 MiB the prefetch cost
 * the kernels 4-9% of their time, any distance. Prefetches do not fault,
 * so one past a source's end is harmless. */
#define TMV_ROWS_LINES_PREFETCH_BYTES 4096

/* Vectors [l0, l1) of output o, S stretches each (a constant where the
 * caller can make it one). One source (SPLIT) keeps its period start, and
 * where it streams its prefetch cursor, in a register: through the array,
 * each period's step made a store-to-load chain, several cycles a vector
 * where a period is one vector. nt: streaming stores (dst 64-aligned). */
__attribute__((always_inline)) static inline void tmv_rows_lines_vectors(const tmv_rows_lines_out *o, uint64_t l0,
                                                                        uint64_t l1, unsigned S, bool single,
                                                                        bool careful, bool nt)
{
    if (l0 >= l1)
        return;
    const uint32_t L = o->st->lines;
    uint64_t j = l0 % L;
    uintptr_t base[TMV_ROWS_MAX_STREAMS], one = o->base[0] + (l0 / L) * o->step[0];
    if (!single)
        for (unsigned k = 0; k < o->sources; k++)
            base[k] = o->base[k] + (l0 / L) * o->step[k];
    const uint64_t *first_mask = o->mask + o->st->first, *mask = first_mask + j * S;
    const int32_t *first_where = o->where + o->st->first, *where = first_where + j * S;
    uint8_t *d = o->dst + 64 * l0;
    uintptr_t next = nt && single ? *o->next : 0;
    for (uint64_t l = l0; l < l1; l++, d += 64) {
        __m512i v = _mm512_setzero_si512();
        for (unsigned k = 0; k < S; k++)
            v = tmv_rows_lines_load(v, mask[k], where[k], single ? one : base[tmv_rows_lines_src(where[k])], ~0ull,
                                    careful);
        if (nt) {
            if (single) {
                _mm_prefetch((const char *)next, _MM_HINT_T0);
                next += 64;
            } else {
                const unsigned src = tmv_rows_lines_src(where[0]);
                _mm_prefetch((const char *)(base[src] + (uintptr_t)tmv_rows_lines_off(where[0]) + o->ahead[src]),
                             _MM_HINT_T0);
            }
            _mm512_stream_si512((void *)d, v);
        } else {
            _mm512_storeu_si512((void *)d, v);
        }
        mask += S;
        where += S;
        if (++j == L) {
            j = 0;
            mask = first_mask;
            where = first_where;
            if (single)
                one += o->step[0];
            else
                for (unsigned k = 0; k < o->sources; k++)
                    base[k] += o->step[k];
        }
    }
    if (nt && single)
        *o->next = next;
}

/* Vectors [l0, l1) that need no care, with S a constant for the common
 * counts. */
__attribute__((always_inline)) static inline void tmv_rows_lines_fast(const tmv_rows_lines_out *o, uint64_t l0,
                                                                     uint64_t l1, bool single, bool nt)
{
    switch (o->st->slots) {
    case 1: tmv_rows_lines_vectors(o, l0, l1, 1, single, false, nt); break;
    case 2: tmv_rows_lines_vectors(o, l0, l1, 2, single, false, nt); break;
    case 3: tmv_rows_lines_vectors(o, l0, l1, 3, single, false, nt); break;
    case 4: tmv_rows_lines_vectors(o, l0, l1, 4, single, false, nt); break;
    default: tmv_rows_lines_vectors(o, l0, l1, o->st->slots, single, false, nt); break;
    }
}

/* Vectors [l0, l1) of the output, each taken with care where it lies
 * outside [head, tail). */
__attribute__((always_inline)) static inline void tmv_rows_lines_range(const tmv_rows_lines_out *o, uint64_t l0,
                                                                      uint64_t l1, bool single, bool nt)
{
    const uint64_t a = o->head > l0 ? (o->head < l1 ? o->head : l1) : l0;
    const uint64_t b = o->tail < l1 ? (o->tail > a ? o->tail : a) : l1;
    tmv_rows_lines_vectors(o, l0, a, o->st->slots, single, true, nt);
    if (nt)
        tmv_rows_lines_fast(o, a, b, single, true);
    else
        tmv_rows_lines_fast(o, a, b, single, false);
    tmv_rows_lines_vectors(o, b, l1, o->st->slots, single, true, nt);
}

/* The last t (< 64) bytes of the output, vector n: masked, with care. */
static inline void tmv_rows_lines_tail(const tmv_rows_lines_out *o, uint64_t n, unsigned t)
{
    const uint32_t L = o->st->lines, S = o->st->slots;
    const uint64_t *mask = o->mask + o->st->first + (n % L) * S;
    const int32_t *where = o->where + o->st->first + (n % L) * S;
    __m512i v = _mm512_setzero_si512();
    for (unsigned k = 0; k < S; k++) {
        const unsigned src = tmv_rows_lines_src(where[k]);
        v = tmv_rows_lines_load(v, mask[k], where[k], o->base[src] + (n / L) * o->step[src], _bzhi_u64(~0ull, t), true);
    }
    tmv_store_first(o->dst + 64 * n, t, v);
}

/* The vectors of an output of `rows` rows of W bytes that need care: those
 * that draw on the first or the last rh rows of a source, rh = ceil(63 /
 * its least pitch), may have windows outside it. */
static inline void tmv_rows_lines_bounds(tmv_rows_lines_out *o, const uint64_t *pitch, uint64_t rows, uint64_t W)
{
    const uint64_t n = rows * W / 64;
    uint64_t least = pitch[0];
    for (unsigned k = 1; k < o->sources; k++)
        least = pitch[k] < least ? pitch[k] : least;
    const uint64_t rh = (63 + least - 1) / least;
    o->head = o->tail = n;
    if (rows > 2 * rh) {
        const uint64_t head = (rh * W + 63) / 64, tail = (rows - rh) * W / 64;
        o->head = head < n ? head : n;
        o->tail = tail < o->head ? o->head : tail < n ? tail : n;
    }
}

/* Rows of the joined tensor a SPLIT reads per round over its pieces: the
 * pieces take turns on a block small enough to stay in L1 between them
 * (piece by piece over the whole tensor read it from memory once per piece
 * at DRAM sizes: two 100-byte pieces at 64 MiB took 19 ms, memcpy 9).
 * Where it streams, each vector the round writes prefetches one line of
 * the next block, so the round, which writes as many vectors as its block
 * has lines where the pieces cover the joined rows, brings in the next
 * block whole. Each piece's pass reads only its columns, the lines of the
 * rows that hold them, and a prefetch a fixed distance ahead of the loads
 * left the others' lines to miss again: three 100-byte pieces at 64 MiB
 * ran 0.48-0.52 x best copy with 4 KiB ahead, 1.0-1.1 by blocks (tmv-bench
 * --tmv_sweep, 2026-11-30). */
#define TMV_ROWS_LINES_SPLIT_BLOCK_BYTES 16384

/* The kernels (rows_x86.h): JOIN's joined rows from the pieces, or each of
 * SPLIT's pieces from the joined rows; streaming where the step's output
 * (all of SPLIT's pieces) reaches the tuning record's threshold, each
 * output that starts on a line. */
__attribute__((always_inline)) static inline void tmv_rows_lines_run(const tmv_rows_shape *s, void *const *pieces,
                                                                    uint8_t *joined, bool join)
{
    const tmv_rows_lines_plan *pl = s->state;
    const unsigned outputs = join ? 1 : pl->streams;
    uintptr_t base[TMV_ROWS_MAX_STREAMS];
    uint64_t pitch[TMV_ROWS_MAX_STREAMS] = {0}, step[TMV_ROWS_MAX_STREAMS], ahead[TMV_ROWS_MAX_STREAMS];
    tmv_rows_lines_out out[TMV_ROWS_MAX_STREAMS];
    bool nt[TMV_ROWS_MAX_STREAMS], streamed = false;
    uintptr_t next = 0;
    if (join) {
        uint64_t read = 0;   /* the pieces' bytes per row */
        for (unsigned p = 0; p < s->piece_count; p++)
            read += s->pieces[p].pitch;
        for (unsigned p = 0; p < s->piece_count; p++) {
            base[p] = (uintptr_t)pieces[s->pieces[p].buffer];
            pitch[p] = s->pieces[p].pitch;
            step[p] = pl->stream[0].rows * pitch[p];
            ahead[p] = TMV_ROWS_LINES_PREFETCH_BYTES * pitch[p] / read;
        }
        out[0] = (tmv_rows_lines_out){&pl->stream[0], pl->mask, pl->where, base, step, ahead, s->piece_count,
                                      joined,          0,        0,         NULL};
        tmv_rows_lines_bounds(&out[0], pitch, s->rows, s->joined_bytes);
    } else {
        for (unsigned o = 0; o < outputs; o++) {
            base[o] = (uintptr_t)joined + s->pieces[o].offset;
            step[o] = pl->stream[o].rows * s->joined_pitch;
            out[o] = (tmv_rows_lines_out){&pl->stream[o], pl->mask, pl->where, &base[o], &step[o], NULL, 1,
                                          pieces[s->pieces[o].buffer], 0, 0, &next};
            tmv_rows_lines_bounds(&out[o], &s->joined_pitch, s->rows, s->pieces[o].bytes);
        }
    }
    const bool past_threshold = s->rows * s->joined_bytes >= s->tuning->stream_threshold;   /* all outputs */
    for (unsigned o = 0; o < outputs; o++) {
        nt[o] = past_threshold && (uintptr_t)out[o].dst % 64 == 0;
        streamed |= nt[o];
    }
    const uint64_t block = join ? s->rows : (TMV_ROWS_LINES_SPLIT_BLOCK_BYTES + s->joined_pitch - 1) / s->joined_pitch;
    for (uint64_t r0 = 0; r0 < s->rows; r0 += block) {
        const uint64_t r1 = s->rows - r0 > block ? r0 + block : s->rows;
        next = (uintptr_t)joined + r1 * s->joined_pitch;
        for (unsigned o = 0; o < outputs; o++) {
            const uint64_t W = join ? s->joined_bytes : s->pieces[o].bytes;
            tmv_rows_lines_range(&out[o], r0 * W / 64, r1 * W / 64, !join, nt[o]);
        }
    }
    for (unsigned o = 0; o < outputs; o++) {
        const uint64_t W = join ? s->joined_bytes : s->pieces[o].bytes;
        if (s->rows * W % 64 != 0)
            tmv_rows_lines_tail(&out[o], s->rows * W / 64, (unsigned)(s->rows * W % 64));
    }
    if (streamed)
        _mm_sfence();
}

#endif
#endif
