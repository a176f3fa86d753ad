/* runs_rows_avx2.c - B-way interleaves and de-interleaves of runs (NHWC SPACE_TO_DEPTH / DEPTH_TO_SPACE in DCR order) by AVX2's row kernels, one row-wise JOIN or SPLIT per position of the outer dims (runs_rows.h).
 *
 * The runs of B * C elements are no element the (de)interleave kernels
 * take unless they are 1, 2, 4 or 8 bytes, and without VBMI's byte
 * permutes (interleave_runs/avx512vbmi) they went to copy_permute/avx2
 * (2 x 6-byte runs, NHWC B2 C3 u8, and 3 x 3-byte, B3 C1 u8), or one run
 * at a time to copy_runs or copy_w16 (4 x 16-byte runs, B4 C1 f32; 3 x
 * 9-byte, B3 C3 u8). The row kernels take them as pieces:
 * join_rows_zip/avx2 2, 4 or 8 pieces of up to 16 bytes,
 * join_rows_padded/avx2 those of 3, 5, 6 or 7 bytes and three of up to 8,
 * join_rows_overlap/avx2 pieces of 9 to 31 bytes (and the same for
 * SPLIT). The row kernel is chosen, and its tables built, at create.
 *
 * Each position is a call of the row kernel, whose set-up (the zip pass's
 * vector order, the column moves' blocks for the rows after the network's)
 * took about 150 ns: SPACE_TO_DEPTH nhwc B4 C1 f32 at 8 KiB, 11 positions
 * of 11 rows, ran 0.31 x memcpy by copy_w16 and 0.10 here. So positions
 * of fewer than TMV_RUNS_ROWS_MIN_BYTES joined bytes are left to the copy
 * kernels. Nor does the JOIN of three pieces go to the padded network,
 * which runs them as four: copy_permute/avx2 builds each output vector of
 * their short joined rows (at most 24 bytes) from a few windows, and ran
 * SPACE_TO_DEPTH nhwc B3 C1 u8 at 1 MiB at 0.44 x best copy against 0.35
 * by the padded JOIN (tmv-bench --tmv_sweep=full, 2 rounds). Nor do
 * TILE's broadcasts, whose streams are one (stride 0): TILE inner 3x8 f32
 * at 1 MiB ran 1.05 x best copy by fill_period/avx2, 0.77 here. */
#include <string.h>

#include "../kernels.h"
#include "../runs_rows.h"

/* The fewest joined bytes a position takes (see the top). */
#define TMV_RUNS_ROWS_MIN_BYTES 2048

/* A row kernel of the set for the runs' JOIN and SPLIT. */
typedef struct rows_candidate {
    tmv_rows_accepts   *accepts;
    tmv_rows_prepare   *prepare;   /* NULL for a stateless kernel */
    tmv_join_rows_run  *join;      /* set for a JOIN kernel */
    tmv_split_rows_run *split;     /* set for a SPLIT kernel */
} rows_candidate;

/* In the registry's order. */
#define CANDIDATES 3
static const rows_candidate joins[CANDIDATES] = {
    {tmv_join_rows_zip_avx2_accepts, NULL, tmv_join_rows_zip_avx2, NULL},
    {tmv_join_rows_padded_avx2_accepts, tmv_join_rows_padded_avx2_prepare, tmv_join_rows_padded_avx2, NULL},
    {tmv_join_rows_overlap_avx2_accepts, NULL, tmv_join_rows_overlap_avx2, NULL},
};
static const rows_candidate splits[CANDIDATES] = {
    {tmv_split_rows_zip_avx2_accepts, NULL, NULL, tmv_split_rows_zip_avx2},
    {tmv_split_rows_padded_avx2_accepts, tmv_split_rows_padded_avx2_prepare, NULL, tmv_split_rows_padded_avx2},
    {tmv_split_rows_overlap_avx2_accepts, NULL, NULL, tmv_split_rows_overlap_avx2},
};

/* The prepared state: the row kernel's tables, the kernel, and the streams
 * and run bytes they are for. */
typedef struct runs_plan {
    _Alignas(64) uint8_t  rows_state[TMV_KERNEL_STATE_BYTES - 64];
    const rows_candidate *kernel;
    uint64_t              streams, run_bytes;
} runs_plan;
_Static_assert(sizeof(runs_plan) <= TMV_KERNEL_STATE_BYTES, "runs_plan fits a kernel's state");

/* The first row kernel that takes s's rows (r set up for s), NULL if none
 * does, s is no (de)interleave of runs or its positions are too short. */
static const rows_candidate *candidate_of(const tmv_copy_shape *s, bool inter, tmv_runs_rows *r)
{
    const unsigned b = tmv_runs_streams(s, inter);
    if (b == 0)
        return NULL;
    tmv_runs_rows_init(r, s, inter, NULL);
    const uint64_t stream_stride = inter ? s->src_strides[r->streams_dim] : s->dst_strides[r->streams_dim];
    if (r->rows.rows * r->rows.joined_bytes < TMV_RUNS_ROWS_MIN_BYTES || stream_stride == 0)
        return NULL;
    const rows_candidate *c = inter ? joins : splits;
    for (unsigned i = 0; i < CANDIDATES; i++) {
        const bool padded_join_of_three = c[i].join == tmv_join_rows_padded_avx2 && b == 3;
        if (!padded_join_of_three && c[i].accepts(&r->rows))
            return &c[i];
    }
    return NULL;
}

static bool runs_accepts(const tmv_copy_shape *s, bool inter)
{
    tmv_runs_rows r;
    return candidate_of(s, inter, &r) != NULL;
}

static void runs_prepare(const tmv_copy_shape *s, void *state, bool inter)
{
    runs_plan *pl = state;
    tmv_runs_rows r;
    pl->kernel = candidate_of(s, inter, &r);
    pl->streams = r.rows.piece_count;
    pl->run_bytes = s->elem_bytes;
    if (pl->kernel->prepare != NULL)
        pl->kernel->prepare(&r.rows, pl->rows_state);
}

/* A shape other than the prepared one's streams and runs (a part a
 * parallel execute cut across them), or one with no state (a copy that
 * has none, GATHER_ND's slice copies), goes to the portable copy. */
static void runs_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter)
{
    const runs_plan *pl = s->state;
    if (pl == NULL || tmv_runs_streams(s, inter) != pl->streams || s->elem_bytes != pl->run_bytes) {
        tmv_copy_memcpy_scalar(s, src, dst);
        return;
    }
    tmv_runs_rows r;
    tmv_runs_rows_init(&r, s, inter, pl->rows_state);
    tmv_runs_as_rows(&r, s, src, dst, pl->kernel->join, pl->kernel->split);
}

bool tmv_interleave_runs_avx2_accepts(const tmv_copy_shape *s) { return runs_accepts(s, true); }
bool tmv_deinterleave_runs_avx2_accepts(const tmv_copy_shape *s) { return runs_accepts(s, false); }
void tmv_interleave_runs_avx2_prepare(const tmv_copy_shape *s, void *state) { runs_prepare(s, state, true); }
void tmv_deinterleave_runs_avx2_prepare(const tmv_copy_shape *s, void *state) { runs_prepare(s, state, false); }

/* Of the row kernels only the zip pass streams (its whole blocks, on
 * aligned rows); the padded and overlapping moves store plain. */
bool tmv_interleave_runs_avx2_streams(const tmv_copy_shape *s)
{
    tmv_runs_rows r;
    return candidate_of(s, true, &r) == &joins[0];
}

void tmv_interleave_runs_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    runs_run(s, src, dst, true);
}

void tmv_deinterleave_runs_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    runs_run(s, src, dst, false);
}
