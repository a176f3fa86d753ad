/* stage.c - streaming COPY, JOIN_ROWS and SPLIT_ROWS steps whose destination is off a 64-byte line, run through a staging buffer in cache.
 *
 * Most kernels that stream their stores do so only to a line-aligned
 * destination (a streaming store of part of a line is slow, and x86 has no
 * unaligned one); to any other they store through the cache, most stores
 * split across two lines and each line read for ownership first. glibc's
 * malloc returns large blocks 16 bytes past a page, so an embedder's output
 * took that path: the sampled sweep's 64 MiB cases with every buffer 16
 * bytes past a line ran at 0.67x their line-aligned speed in geometric
 * mean, TILE's broadcasts by copy_permute at 0.24-0.26x (docs/PERFORMANCE.md,
 * fifty-second). Staged, a kernel writes a chunk of the step into a buffer
 * that stays in cache, at the destination's offset within a line, and the
 * chunk's whole lines are streamed out from there. A parallel execute's task
 * stages its own part the same way (task.c), on its own stack. */
#include "stage.h"

#include "cost.h"

#if defined(__SSE2__)
#include "x86/stream_x86.h"
#define TMV_STAGE_STREAMS 1
#else
#define TMV_STAGE_STREAMS 0 /* no COPY kernel of the Arm sets streams */
#endif

/* The destination is dense, dim 0 outermost: a run of dim 0's slabs is one
 * contiguous range of it. */
static bool dense_by_dim0(const tmv_copy_shape *s)
{
    if (s->rank == 0 || s->sizes[0] < 2)
        return false;
    const uint64_t bytes = tmv_shape_bytes(s);
    uint64_t extent = s->elem_bytes;
    for (uint32_t d = 0; d < s->rank; d++)
        extent += s->dst_strides[d] * (s->sizes[d] - 1);
    return extent == bytes && s->dst_strides[0] * s->sizes[0] == bytes;
}

/* Slabs of `slab` bytes (dim 0's of a copy, a joined row) a chunk takes:
 * one less than fit, so that a last lone slab joins the chunk before it (a
 * dim of 1 is another geometry). */
static uint64_t chunk_slabs(uint64_t slab)
{
    return TMV_STAGE_BYTES / slab - 1;
}

/* A SPLIT's chunk: its pieces each in a region of the buffer of their own,
 * from a line boundary, at their output's offset within a line, which
 * costs up to 127 bytes a piece. */
#define SPLIT_PIECE_SLACK 128u
static uint64_t split_chunk_rows(const tmv_rows_shape *s)
{
    return (TMV_STAGE_BYTES - SPLIT_PIECE_SLACK * s->piece_count) / s->joined_bytes - 1;
}

/* Dim 0's size in the chunk from slab lo on (chunks start at multiples of per). */
static uint64_t chunk_size(uint64_t rows, uint64_t lo, uint64_t per)
{
    return rows - lo <= per + 1 ? rows - lo : per;
}

/* The staged shape: s's own, under `tuning` (s's with no stream threshold:
 * the chunks fit the cache, their stores are plain) and with no state. */
static tmv_copy_shape staged_part(const tmv_copy_shape *s, const tmv_tuning *tuning)
{
    tmv_copy_shape part = *s;
    part.tuning = tuning;
    part.state = NULL;
    return part;
}

static tmv_tuning in_cache(const tmv_tuning *t)
{
    tmv_tuning c = *t;
    c.stream_threshold = UINT64_MAX;
    return c;
}

/* Whether kernel k takes the first and the last chunk of copy shape s
 * (tuned for the cache) in chunks of `per` slabs. */
static bool copy_chunks_taken(const tmv_kernel *k, tmv_copy_shape part, uint64_t per)
{
    const uint64_t rows = part.sizes[0];
    part.sizes[0] = chunk_size(rows, 0, per);
    if (!k->fn.copy.accepts(&part))
        return false;
    part.sizes[0] = chunk_size(rows, (rows - 2) / per * per, per);
    return k->fn.copy.accepts(&part);
}

/* The same for a rows shape and the JOIN_ROWS or SPLIT_ROWS kernel k. */
static bool rows_chunks_taken(const tmv_kernel *k, tmv_rows_shape part, uint64_t per)
{
    tmv_rows_accepts *accepts =
        k->primitive == TMV_PRIMITIVE_JOIN_ROWS ? k->fn.join_rows.accepts : k->fn.split_rows.accepts;
    const uint64_t rows = part.rows;
    part.rows = chunk_size(rows, 0, per);
    if (!accepts(&part))
        return false;
    part.rows = chunk_size(rows, (rows - 2) / per * per, per);
    return accepts(&part);
}

/* The kernel that writes the chunks of COPY step `step`, or NULL when the
 * step does not stage. Of the kernels with no prepared state (a chunk is
 * another shape than the one a state was built for), the model's choice
 * for the first chunk in cache, if it also takes the last one. */
static const tmv_kernel *stage_kernel(const tmv_op *op, const tmv_step *step)
{
    const tmv_copy_shape *s = &step->u.copy.shape;
    if (!TMV_STAGE_STREAMS || step->kernel->peels || !dense_by_dim0(s) || s->dst_strides[0] > TMV_STAGE_BYTES / 4 ||
        !tmv_cost_streams(step->kernel, s, (double)tmv_shape_bytes(s), &op->tuning))
        return NULL;
    const tmv_tuning tuning = in_cache(&op->tuning);
    tmv_copy_shape part = staged_part(s, &tuning);
    const uint64_t per = chunk_slabs(s->dst_strides[0]);
    part.sizes[0] = chunk_size(s->sizes[0], 0, per);
    const tmv_kernel *k = tmv_pick_copy_stateless(op->isa, &part);
    return k != NULL && copy_chunks_taken(k, staged_part(s, &tuning), per) ? k : NULL;
}

/* The same for a JOIN_ROWS step: its own kernel (with its prepared state,
 * built for the pieces, which a run of whole rows keeps), if it takes the
 * rows in cache, for joined rows that are dense and short enough. */
static const tmv_kernel *stage_join_kernel(const tmv_op *op, const tmv_step *step)
{
    const tmv_rows_shape *s = &step->u.join_rows.shape;
    if (!TMV_STAGE_STREAMS || step->kernel->peels || s->rows < 2 || s->joined_pitch != s->joined_bytes ||
        s->joined_pitch > TMV_STAGE_BYTES / 4 || s->piece_count > TMV_STAGE_MAX_PIECES ||
        !tmv_cost_streams(step->kernel, s, (double)(s->rows * s->joined_bytes), &op->tuning))
        return NULL;
    const tmv_tuning tuning = in_cache(&op->tuning);
    tmv_rows_shape part = *s;
    part.tuning = &tuning;
    return rows_chunks_taken(step->kernel, part, chunk_slabs(s->joined_pitch)) ? step->kernel : NULL;
}

/* The same for a SPLIT_ROWS step, whose outputs (the pieces) are each
 * dense. */
static const tmv_kernel *stage_split_kernel(const tmv_op *op, const tmv_step *step)
{
    const tmv_rows_shape *s = &step->u.split_rows.shape;
    if (!TMV_STAGE_STREAMS || step->kernel->peels || s->rows < 2 || s->piece_count > TMV_STAGE_MAX_PIECES ||
        4 * s->joined_bytes > TMV_STAGE_BYTES - SPLIT_PIECE_SLACK * s->piece_count ||
        !tmv_cost_streams(step->kernel, s, (double)(s->rows * s->joined_bytes), &op->tuning))
        return NULL;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].pitch != s->pieces[p].bytes)
            return NULL;
    const tmv_tuning tuning = in_cache(&op->tuning);
    tmv_rows_shape part = *s;
    part.tuning = &tuning;
    return rows_chunks_taken(step->kernel, part, split_chunk_rows(s)) ? step->kernel : NULL;
}

void tmv_plan_stage(tmv_op *op)
{
    for (uint32_t i = 0; i < op->step_count; i++) {
        tmv_step *step = &op->steps[i];
        step->stage_kernel = step->kind == TMV_STEP_COPY         ? stage_kernel(op, step)
                             : step->kind == TMV_STEP_JOIN_ROWS  ? stage_join_kernel(op, step)
                             : step->kind == TMV_STEP_SPLIT_ROWS ? stage_split_kernel(op, step)
                                                                 : NULL;
    }
}

#if TMV_STAGE_STREAMS
bool tmv_stage_copy(const tmv_step *step, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    if (step->stage_kernel == NULL || ((uintptr_t)dst & 63) == 0 || s->sizes[0] < 2)
        return false;
    const tmv_tuning tuning = in_cache(s->tuning);
    tmv_copy_shape part = staged_part(s, &tuning);
    const uint64_t slab = s->dst_strides[0], rows = s->sizes[0], per = chunk_slabs(slab);
    if (s != &step->u.copy.shape && (!dense_by_dim0(s) || !copy_chunks_taken(step->stage_kernel, part, per)))
        return false;
    _Alignas(64) uint8_t stage[TMV_STAGE_BYTES + 64];
    for (uint64_t lo = 0, n; lo < rows; lo += n) {
        n = chunk_size(rows, lo, per);
        uint8_t *to = dst + lo * slab, *buf = stage + ((uintptr_t)to & 63);
        part.sizes[0] = n;
        step->stage_kernel->fn.copy.run(&part, src + lo * s->src_strides[0], buf);
        tmv_stream_copy(to, buf, n * slab);
    }
    _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
    return true;
}

/* The pieces of a rows shape with buffer p for piece p, into pieces[]: the
 * chunks' pointers are per piece. */
static tmv_rows_shape own_buffers(const tmv_rows_shape *s, const tmv_tuning *tuning, tmv_rows_piece *pieces)
{
    tmv_rows_shape part = *s;
    for (uint32_t p = 0; p < s->piece_count; p++) {
        pieces[p] = s->pieces[p];
        pieces[p].buffer = p;
    }
    part.pieces = pieces;
    part.tuning = tuning;
    return part;
}

bool tmv_stage_join(const tmv_step *step, const tmv_rows_shape *s, const void *const *inputs, uint8_t *joined)
{
    if (step->stage_kernel == NULL || ((uintptr_t)joined & 63) == 0 || s->rows < 2)
        return false;
    const tmv_tuning tuning = in_cache(s->tuning);
    tmv_rows_piece pieces[TMV_STAGE_MAX_PIECES];
    tmv_rows_shape part = own_buffers(s, &tuning, pieces);
    const uint64_t slab = s->joined_pitch, per = chunk_slabs(slab);
    if (s != &step->u.join_rows.shape && !rows_chunks_taken(step->stage_kernel, part, per))
        return false;
    _Alignas(64) uint8_t stage[TMV_STAGE_BYTES + 64];
    const uint8_t *from[TMV_STAGE_MAX_PIECES]; /* each piece's source at the chunk's first row */
    for (uint64_t lo = 0, n; lo < s->rows; lo += n) {
        n = chunk_size(s->rows, lo, per);
        for (uint32_t p = 0; p < s->piece_count; p++)
            from[p] = (const uint8_t *)inputs[s->pieces[p].buffer] + lo * s->pieces[p].pitch;
        uint8_t *to = joined + lo * slab, *buf = stage + ((uintptr_t)to & 63);
        part.rows = n;
        step->stage_kernel->fn.join_rows.run(&part, (const void *const *)from, buf);
        tmv_stream_copy(to, buf, n * slab);
    }
    _mm_sfence();
    return true;
}

/* Whether any of a SPLIT's outputs is off a line. */
static bool any_off_a_line(const tmv_rows_shape *s, void *const *outputs)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (((uintptr_t)outputs[s->pieces[p].buffer] & 63) != 0)
            return true;
    return false;
}

bool tmv_stage_split(const tmv_step *step, const tmv_rows_shape *s, const uint8_t *joined, void *const *outputs)
{
    if (step->stage_kernel == NULL || s->rows < 2 || !any_off_a_line(s, outputs))
        return false;
    const tmv_tuning tuning = in_cache(s->tuning);
    tmv_rows_piece pieces[TMV_STAGE_MAX_PIECES];
    tmv_rows_shape part = own_buffers(s, &tuning, pieces);
    const uint64_t per = split_chunk_rows(s);
    if (s != &step->u.split_rows.shape && !rows_chunks_taken(step->stage_kernel, part, per))
        return false;
    _Alignas(64) uint8_t stage[TMV_STAGE_BYTES + 64];
    uint8_t *to[TMV_STAGE_MAX_PIECES], *buf[TMV_STAGE_MAX_PIECES];
    for (uint64_t lo = 0, n; lo < s->rows; lo += n) {
        n = chunk_size(s->rows, lo, per);
        uint8_t *free_at = stage; /* each piece's region from the next line on */
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *q = &s->pieces[p];
            to[p] = (uint8_t *)outputs[q->buffer] + lo * q->bytes;
            buf[p] = free_at + ((uintptr_t)to[p] & 63);
            free_at = stage + ((uintptr_t)(buf[p] + n * q->bytes - stage) + 63) / 64 * 64;
        }
        part.rows = n;
        step->stage_kernel->fn.split_rows.run(&part, joined + lo * s->joined_pitch, (void *const *)buf);
        for (uint32_t p = 0; p < s->piece_count; p++)
            tmv_stream_copy(to[p], buf[p], n * s->pieces[p].bytes);
    }
    _mm_sfence();
    return true;
}

#else /* no streaming kernel in the Arm sets: tmv_stage_plan gives no step a stage kernel */

bool tmv_stage_copy(const tmv_step *step, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    (void)step, (void)s, (void)src, (void)dst;
    return false;
}

bool tmv_stage_join(const tmv_step *step, const tmv_rows_shape *s, const void *const *inputs, uint8_t *joined)
{
    (void)step, (void)s, (void)inputs, (void)joined;
    return false;
}

bool tmv_stage_split(const tmv_step *step, const tmv_rows_shape *s, const uint8_t *joined, void *const *outputs)
{
    (void)step, (void)s, (void)joined, (void)outputs;
    return false;
}

#endif
