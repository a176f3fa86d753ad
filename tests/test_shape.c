/* test_shape.c - normalization of copy shapes: a table of shapes in and the normalized shapes out. */
#include <criterion/criterion.h>
#include <string.h>

#include "shape.h"

/* One row: rank, elem_bytes, then sizes / src / dst strides (bytes) in and out. */
typedef struct shape_row {
    const char *what;
    tmv_copy_shape in;
    bool           moves;   /* false: some size is 0 */
    tmv_copy_shape out;
} shape_row;

#define SHAPE(rank, elem, sizes, src, dst) {rank, elem, sizes, src, dst, NULL, NULL}
#define L(...) {__VA_ARGS__}

static const shape_row rows[] = {
    {"packed 3-D folds into one element",
     SHAPE(3, 4, L(2, 3, 5), L(60, 20, 4), L(60, 20, 4)), true,
     SHAPE(0, 120, L(0), L(0), L(0))},
    {"size-1 dims are dropped whatever their strides",
     SHAPE(3, 2, L(1, 7, 1), L(999, 2, 12345), L(0, 2, 77)), true,
     SHAPE(0, 14, L(0), L(0), L(0))},
    {"padded destination rows: rows x row bytes",
     SHAPE(2, 4, L(3, 5), L(20, 4), L(32, 4)), true,
     SHAPE(1, 20, L(3), L(20), L(32))},
    {"transpose keeps both dims, ordered by destination stride",
     SHAPE(2, 4, L(3, 5), L(20, 4), L(4, 12)), true,
     SHAPE(2, 4, L(5, 3), L(4, 20), L(12, 4))},
    {"broadcast source dims merge with each other",
     SHAPE(3, 1, L(4, 6, 2), L(0, 0, 1), L(12, 2, 1)), true,
     SHAPE(1, 2, L(24), L(0), L(2))},
    {"a zero size moves nothing",
     SHAPE(2, 8, L(4, 0), L(8, 8), L(8, 8)), false,
     SHAPE(0, 0, L(0), L(0), L(0))},
    {"contiguous in the destination only stays strided in the source",
     SHAPE(2, 2, L(4, 4), L(2, 16), L(8, 2)), true,
     SHAPE(2, 2, L(4, 4), L(2, 16), L(8, 2))},
    {"middle dims merge, outer padded dim stays",
     SHAPE(4, 4, L(2, 3, 4, 5), L(512, 80, 20, 4), L(512, 80, 20, 4)), true,
     SHAPE(1, 240, L(2), L(512), L(512))},
    {"rank 0 stays a single element",
     SHAPE(0, 8, L(0), L(0), L(0)), true,
     SHAPE(0, 8, L(0), L(0), L(0))},
};

static void expect_shape(const tmv_copy_shape *got, const tmv_copy_shape *want, const char *what)
{
    cr_expect_eq(got->rank, want->rank, "%s: rank %u, want %u", what, got->rank, want->rank);
    cr_expect_eq(got->elem_bytes, want->elem_bytes, "%s: elem_bytes %llu, want %llu", what,
                 (unsigned long long)got->elem_bytes, (unsigned long long)want->elem_bytes);
    for (uint32_t d = 0; d < want->rank && d < got->rank; d++) {
        cr_expect_eq(got->sizes[d], want->sizes[d], "%s: sizes[%u]", what, d);
        cr_expect_eq(got->src_strides[d], want->src_strides[d], "%s: src_strides[%u]", what, d);
        cr_expect_eq(got->dst_strides[d], want->dst_strides[d], "%s: dst_strides[%u]", what, d);
    }
}

Test(shape, normalization_table)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tmv_copy_shape s = rows[i].in;
        bool moves = tmv_shape_normalize(&s);
        cr_expect_eq(moves, rows[i].moves, "%s: normalize returned %d", rows[i].what, moves);
        if (moves && rows[i].moves)
            expect_shape(&s, &rows[i].out, rows[i].what);
    }
}

Test(shape, bytes_counts_every_element)
{
    tmv_copy_shape s = SHAPE(2, 12, L(3, 7), L(0, 12), L(84, 12));
    cr_expect_eq(tmv_shape_bytes(&s), 3 * 7 * 12);
}

/* Normalizing must not change which bytes go where: walk both shapes. */
static void collect(const tmv_copy_shape *s, uint64_t *pairs, size_t *n)
{
    uint64_t idx[TMV_SHAPE_MAX_DIMS] = {0};
    for (;;) {
        uint64_t src = 0, dst = 0;
        for (uint32_t d = 0; d < s->rank; d++) {
            src += idx[d] * s->src_strides[d];
            dst += idx[d] * s->dst_strides[d];
        }
        for (uint64_t b = 0; b < s->elem_bytes; b++) {
            pairs[2 * *n] = dst + b;
            pairs[2 * *n + 1] = src + b;
            (*n)++;
        }
        uint32_t d = s->rank;
        while (d > 0 && ++idx[d - 1] == s->sizes[d - 1])
            idx[--d] = 0;
        if (d == 0)
            return;
    }
}

static int by_destination(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

Test(shape, normalization_keeps_the_byte_mapping)
{
    static uint64_t before[2 * 4096], after[2 * 4096];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!rows[i].moves)
            continue;
        tmv_copy_shape s = rows[i].in;
        size_t n_before = 0, n_after = 0;
        collect(&s, before, &n_before);
        tmv_shape_normalize(&s);
        collect(&s, after, &n_after);
        cr_assert_eq(n_before, n_after, "%s: byte count changed", rows[i].what);
        qsort(before, n_before, 2 * sizeof(uint64_t), by_destination);
        qsort(after, n_after, 2 * sizeof(uint64_t), by_destination);
        cr_expect(memcmp(before, after, n_before * 2 * sizeof(uint64_t)) == 0,
                  "%s: normalization moved a byte elsewhere", rows[i].what);
    }
}
