/* copy_permute_plan_avx2.c - copy_permute/avx2's plans (copy_permute_plan_avx2.h): the block of a shape, each vector's lane windows and shuffle tables; the kernel, and why it works so, in copy_permute_avx2.c. */
#include "copy_permute_plan_avx2.h"

#include <string.h>

/* The 16-byte windows that cover a lane's 16 source offsets o: greedy from
 * the least offset, each next one from the least the windows before leave
 * (the fewest windows); a window starts at most at `last` - 15, so it
 * never reads past the block's last source byte, nor before its first
 * (offset 0). Returns how many, 0 if more than `most`. */
static unsigned lane_windows(const uint64_t *o, uint64_t last, unsigned most, uint64_t *start)
{
    unsigned w = 0;
    for (uint64_t from = 0;;) {
        uint64_t least = UINT64_MAX;
        for (unsigned i = 0; i < 16; i++)
            if (o[i] >= from && o[i] < least)
                least = o[i];
        if (least == UINT64_MAX)
            return w;
        if (w == most)
            return 0;
        start[w] = least < last - 15 ? least : last - 15;
        from = start[w++] + 16;
    }
}

/* A lane's shuffle for window pair e: each byte's place in window e if the
 * first of the lane's `count` windows that holds it is e, else 0x80 (a
 * pair past the lane's windows supplies none of its bytes). */
static void lane_ctl(const uint64_t *o, const uint64_t *start, unsigned count, unsigned e, uint8_t *ctl)
{
    for (unsigned i = 0; i < 16; i++) {
        unsigned w = 0;
        while (w < count && o[i] - start[w] >= 16)
            w++;
        ctl[i] = w == e ? (uint8_t)(o[i] - start[w]) : 0x80;
    }
}

/* The tables of a block of `periods` periods of s's dim outside its inner
 * `dims` (or of those dims alone, periods 1), `bytes` bytes, into pl;
 * false if a lane needs more than PERMUTE2_ENTRIES_MAX windows, the
 * vectors more than PERMUTE2_SLOTS pairs, or the block's source span is
 * under a window or over 4 GiB. Vector v is the
 * block's bytes from 32 v, the last one ending at the block's end. */
static bool plan_block(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes, permute2_plan *pl)
{
    uint64_t off[PERMUTE2_BLOCK_MAX], start[PERMUTE2_VECTORS_MAX][2][PERMUTE2_ENTRIES_MAX];
    unsigned count[PERMUTE2_VECTORS_MAX][2];
    if (bytes < PERMUTE2_BLOCK_MIN || bytes > PERMUTE2_BLOCK_MAX || !tmv_block_offsets(s, dims, periods, off, bytes))
        return false;
    uint64_t last = 0;
    for (uint64_t b = 0; b < bytes; b++)
        last = off[b] > last ? off[b] : last;
    if (last < 15 || last > UINT32_MAX)
        return false;
    memset(pl, 0, sizeof *pl);
    pl->vectors = (unsigned)((bytes + 31) / 32);
    pl->entries = 1;
    for (unsigned v = 0; v < pl->vectors; v++) {
        pl->dst[v] = (uint32_t)(32 * v + 32 <= bytes ? 32 * v : bytes - 32);
        for (unsigned lane = 0; lane < 2; lane++) {
            count[v][lane] = lane_windows(off + pl->dst[v] + 16 * lane, last, PERMUTE2_ENTRIES_MAX, start[v][lane]);
            if (count[v][lane] == 0)
                return false;
            pl->entries = count[v][lane] > pl->entries ? count[v][lane] : pl->entries;
        }
    }
    if (pl->vectors * pl->entries > PERMUTE2_SLOTS)
        return false;
    for (unsigned v = 0; v < pl->vectors; v++)
        for (unsigned e = 0; e < pl->entries; e++) {
            uint8_t ctl[32];
            for (unsigned lane = 0; lane < 2; lane++)
                lane_ctl(off + pl->dst[v] + 16 * lane, start[v][lane], count[v][lane], e, ctl + 16 * lane);
            const unsigned slot = v * pl->entries + e;
            pl->ctl[slot] = _mm256_loadu_si256((const __m256i *)ctl);
            /* a pair past a lane's windows loads its first (in the block, shuffled to nothing) */
            pl->win[slot] = start[v][0][e < count[v][0] ? e : 0] | start[v][1][e < count[v][1] ? e : 0] << 32;
        }
    tmv_block_dims_keep(&pl->inner, s, dims, periods);
    return true;
}

/* Of the blocks of at most 512, 256, ... 32 bytes whose tables fit, of
 * periods that divide their dim and then of any (a block of the last
 * periods moves the rest, over bytes written: SPACE_TO_DEPTH of NHWC, CRD,
 * B3 C3 u8, rows of 197 output pixels of 27 bytes, moved byte by byte at
 * 1 MiB until then), the first of those whose vectors take the fewest
 * window pairs: every vector takes the plan's most, and a larger block may
 * need more than a smaller one. */
static bool plan_of_order(const tmv_copy_shape *s, permute2_plan *pl)
{
    permute2_plan tried;
    uint32_t dims;
    uint64_t periods, bytes;
    bool found = false;
    for (int overlap = 0; overlap < 2; overlap++)
        for (uint64_t limit = PERMUTE2_BLOCK_MAX; limit >= PERMUTE2_BLOCK_MIN; limit /= 2)
            if (tmv_block_of(s, limit, PERMUTE2_BLOCK_MIN, 32, overlap, &dims, &periods, &bytes) &&
                plan_block(s, dims, periods, bytes, &tried) && (!found || tried.entries < pl->entries)) {
                *pl = tried;
                found = true;
            }
    return found;
}

/* In the shape's order, else by destination (the normal order's transpose
 * block may keep a dim that writes densely out of the block, shape.h). */
bool tmv_permute2_plan_make(const tmv_copy_shape *s, permute2_plan *pl)
{
    if (s->rank == 0 || s->elem_bytes > PERMUTE2_ELEM_MAX)
        return false;
    if (plan_of_order(s, pl))
        return true;
    tmv_copy_shape sorted = *s;
    if (!tmv_permute_dims_by_destination(&sorted) || !plan_of_order(&sorted, pl))
        return false;
    pl->by_destination = true;
    return true;
}
