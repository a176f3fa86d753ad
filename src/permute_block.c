/* permute_block.c - the dense blocks of a copy shape's inner dims and their bytes' source offsets (permute_block.h). */
#include "permute_block.h"

/* The inner j dims of s write a dense block: sorted by destination stride,
 * each dim's stride is the bytes of those inside it. */
bool tmv_dense_block_of(const tmv_copy_shape *s, uint32_t j, tmv_dense_block *b)
{
    const uint32_t first = s->rank - j;
    uint64_t covered = s->elem_bytes;
    uint32_t used = 0, outermost = first;   /* used: bit d - first, dim d taken */
    for (uint32_t taken = 0; taken < j; taken++) {
        uint32_t d = first;
        while (d < s->rank && ((used >> (d - first) & 1u) || s->dst_strides[d] != covered))
            d++;
        if (d == s->rank || s->sizes[d] > (1ull << 40) / covered)
            return false;
        used |= 1u << (d - first);
        covered *= s->sizes[d];
        outermost = d;
    }
    *b = (tmv_dense_block){covered, s->sizes[first], outermost == first};
    return true;
}

/* Of the k <= n with least <= k * t <= limit (only divisors of n unless
 * `tail`), the one whose k * t bytes fill their vectors best (the larger
 * on ties); 0 if there is none. */
uint64_t tmv_block_periods(uint64_t n, uint64_t t, uint64_t least, uint64_t limit, bool tail, uint64_t vector)
{
    uint64_t best = 0, best_fill = 0;
    for (uint64_t k = 1; k <= n && k * t <= limit; k++) {
        if (k * t < least || (!tail && n % k != 0))
            continue;
        const uint64_t bytes = k * t, fill = bytes * 1024 / ((bytes + vector - 1) / vector * vector);
        if (fill >= best_fill) {
            best = k;
            best_fill = fill;
        }
    }
    return best;
}

/* The block of s: the most inner dims that write densely, the outermost of
 * them (if it is the first of them in the shape) cut into `periods` of its
 * elements, a divisor, when they do not fit `limit` bytes whole; false
 * when no block of `least` bytes exists. */
bool tmv_block_of(const tmv_copy_shape *s, uint64_t limit, uint64_t least, uint64_t vector, bool overlap,
                  uint32_t *dims, uint64_t *periods, uint64_t *bytes)
{
    tmv_dense_block b;
    for (uint32_t j = s->rank; j > 0; j--) {
        if (!tmv_dense_block_of(s, j, &b))
            continue;
        const uint64_t t = b.bytes, n = b.n;
        if (t <= limit && (!b.cuts || tmv_block_periods(n, t / n, least, limit, false, vector) == n)) {
            *dims = j;
            *periods = 1;
            *bytes = t;
        } else if (b.cuts) {
            const uint64_t k = tmv_block_periods(n, t / n, least, limit, overlap, vector);
            if (k == 0)
                continue;
            *dims = j - 1;
            *periods = k;
            *bytes = k * (t / n);
        } else {
            continue;
        }
        return *bytes >= least;
    }
    return false;
}

/* The source offset of each of the block's n bytes, from its source base:
 * the block's dims in the order they write (each one's destination stride
 * is the bytes of those before it), then `periods` of the dim outside them,
 * each a copy of the bytes so far, moved by its source stride. False if the
 * dims do not write n bytes densely. */
bool tmv_block_offsets(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t *off, uint64_t n)
{
    const uint32_t first = s->rank - dims;
    uint64_t covered = s->elem_bytes;
    uint32_t used = 0;   /* bit d - first: dim d taken */
    if (covered > n)
        return false;
    for (uint64_t b = 0; b < covered; b++)
        off[b] = b;
    for (uint32_t taken = 0; taken <= dims; taken++) {
        uint64_t size = periods, src_stride = first > 0 ? s->src_strides[first - 1] : 0;
        if (taken < dims) {
            uint32_t d = first;
            while (d < s->rank && ((used >> (d - first) & 1u) || s->dst_strides[d] != covered))
                d++;
            if (d == s->rank)
                return false;
            used |= 1u << (d - first);
            size = s->sizes[d];
            src_stride = s->src_strides[d];
        }
        if (size > n / covered)
            return false;
        for (uint64_t i = 1; i < size; i++)
            for (uint64_t x = 0; x < covered; x++)
                off[i * covered + x] = off[x] + i * src_stride;
        covered *= size;
    }
    return covered == n;
}

bool tmv_permute_dims_by_destination(tmv_copy_shape *s)
{
    bool moved = false;
    for (uint32_t i = 1; i < s->rank; i++)
        for (uint32_t d = i; d > 0 && s->dst_strides[d] > s->dst_strides[d - 1]; d--) {
            tmv_shape_swap_dims(s, d);
            moved = true;
        }
    return moved;
}


void tmv_block_dims_keep(tmv_block_dims *k, const tmv_copy_shape *s, uint32_t dims, uint64_t periods)
{
    k->elem_bytes = s->elem_bytes;
    k->dims = dims;
    k->periods = periods;
    const uint32_t from = s->rank - dims - (periods > 1);
    for (uint32_t d = from; d < s->rank; d++) {
        k->sizes[d - from] = s->sizes[d];
        k->src_strides[d - from] = s->src_strides[d];
        k->dst_strides[d - from] = s->dst_strides[d];
    }
}

bool tmv_block_dims_match(const tmv_block_dims *k, const tmv_copy_shape *s, uint64_t *cut)
{
    *cut = 0;
    if (k->elem_bytes != s->elem_bytes || s->rank < k->dims + (k->periods > 1))
        return false;
    const uint32_t from = s->rank - k->dims - (k->periods > 1);
    for (uint32_t d = from; d < s->rank; d++) {
        if (k->periods > 1 && d == from)
            *cut = s->sizes[d];
        else if (s->sizes[d] != k->sizes[d - from])
            return false;
        if (s->src_strides[d] != k->src_strides[d - from] || s->dst_strides[d] != k->dst_strides[d - from])
            return false;
    }
    return true;
}
