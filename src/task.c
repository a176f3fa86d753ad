/* task.c - running one task of a split step: its run of the split extent, cut into boxes, each through a kernel.
 *
 * A task's run [a, b) of the flattened outer dims is at most a partial slab,
 * whole slabs, and a partial slab at each level (for_each_box); each box is a
 * shape of its own, bound to offset pointers. Parts of a step run at once, so
 * each sees the stream threshold divided by the task count: together they
 * write what the step writes, and make the step's streaming choice. */
#include "partition.h"
#include "stage.h"

typedef struct task {
    const tmv_op      *op;
    const tmv_step    *step;
    const void *const *inputs;
    void *const       *outputs;
    tmv_tuning         tuning; /* the op's, stream threshold divided by the task count */
    bool               in_range; /* a GATHER check task: no bad index so far */
} task;

/* A box: dims [0, level) fixed at coords, dim `level` over [lo, hi), the
 * dims after it whole. */
typedef void box_fn(task *t, uint32_t level, const uint64_t *coords, uint64_t lo, uint64_t hi);

/* Calls box() for the boxes that make up [a, b) of the row-major flattening
 * of dims [level, k) of sizes, under the fixed coords of the dims before. */
static void for_each_box(task *t, box_fn *box, const uint64_t *sizes, uint32_t k, uint32_t level,
                         uint64_t *coords, uint64_t a, uint64_t b)
{
    if (level + 1 == k) {
        box(t, level, coords, a, b);
        return;
    }
    uint64_t inner = 1;
    for (uint32_t d = level + 1; d < k; d++)
        inner *= sizes[d];
    uint64_t i0 = a / inner;
    const uint64_t i1 = b / inner, ra = a % inner, rb = b % inner;
    if (i0 == i1) {
        coords[level] = i0;
        for_each_box(t, box, sizes, k, level + 1, coords, ra, rb);
        return;
    }
    if (ra != 0) {
        coords[level] = i0++;
        for_each_box(t, box, sizes, k, level + 1, coords, ra, inner);
    }
    if (i1 > i0)
        box(t, level, coords, i0, i1);
    if (rb != 0) {
        coords[level] = i1;
        for_each_box(t, box, sizes, k, level + 1, coords, 0, rb);
    }
}

/* The offset of a box's first element along strides. */
static uint64_t box_offset(const uint64_t *strides, uint32_t level, const uint64_t *coords, uint64_t lo)
{
    uint64_t off = lo * strides[level];
    for (uint32_t d = 0; d < level; d++)
        off += coords[d] * strides[d];
    return off;
}

/* Drops the first `level` entries of an n-entry array. */
static void drop_dims(uint64_t *v, uint32_t n, uint32_t level)
{
    for (uint32_t d = level; d < n; d++)
        v[d - level] = v[d];
}

/* ---- copies ---- */

static void run_copy(task *t, tmv_copy_shape *part, const uint8_t *src, uint8_t *dst, bool same_geometry)
{
    part->tuning = &t->tuning;
    if (same_geometry && tmv_stage_copy(t->step, part, src, dst)) /* off a line (stage.h) */
        return;
    /* A box whose geometry changed (dims dropped, a dim of 1) is classified
     * again; the step's kernel may also refuse a smaller box (its accepts
     * may weigh sizes). Then a kernel with no state runs it. A kernel with
     * state is not asked again (its accepts builds its tables): it checks
     * that they fit the part it is given. */
    const tmv_kernel *k = t->step->kernel;
    if (!same_geometry || (k->fn.copy.prepare == NULL && !k->fn.copy.accepts(part))) {
        if (!tmv_shape_normalize(part))
            return;
        k = tmv_pick_copy_first(t->op->isa, part);
    }
    k->fn.copy.run(part, src, dst);
}

/* The copy step's part from src_off / dst_off bytes into its bound source
 * and destination: run_copy with the step's buffers. */
static void run_copy_at(task *t, tmv_copy_shape *part, uint64_t src_off, uint64_t dst_off, bool same_geometry)
{
    const tmv_step *step = t->step;
    run_copy(t, part, tmv_step_copy_src(step, t->inputs, t->outputs) + src_off,
             (uint8_t *)t->outputs[step->dst_buffer] + step->dst_offset + dst_off, same_geometry);
}

static void copy_box(task *t, uint32_t level, const uint64_t *coords, uint64_t lo, uint64_t hi)
{
    tmv_copy_shape part = t->step->u.copy.shape;
    const uint64_t src_off = box_offset(part.src_strides, level, coords, lo);
    const uint64_t dst_off = box_offset(part.dst_strides, level, coords, lo);
    drop_dims(part.sizes, part.rank, level);
    drop_dims(part.src_strides, part.rank, level);
    drop_dims(part.dst_strides, part.rank, level);
    part.rank -= level;
    part.sizes[0] = hi - lo;
    run_copy_at(t, &part, src_off, dst_off, level == 0 && hi - lo > 1);
}

/* Elements [lo, hi) of the copy's split_dim, every other dim whole. */
static void copy_dim_range(task *t, uint64_t lo, uint64_t hi)
{
    const uint32_t d = t->step->split_dim;
    tmv_copy_shape part = t->step->u.copy.shape;
    part.sizes[d] = hi - lo;
    run_copy_at(t, &part, lo * part.src_strides[d], lo * part.dst_strides[d], hi - lo > 1);
}

static void copy_bytes(task *t, uint64_t a, uint64_t b)
{
    tmv_copy_shape part = t->step->u.copy.shape;
    part.elem_bytes = b - a;
    run_copy_at(t, &part, a, a, true);
}

/* ---- row-wise JOIN / SPLIT ---- */

/* Rows [row, row + rows) of the step, joined-row bytes [c0, c1). */
static void rows_part(task *t, uint64_t row, uint64_t rows, uint64_t c0, uint64_t c1)
{
    const tmv_step *step = t->step;
    const bool join = step->kind == TMV_STEP_JOIN_ROWS;
    const tmv_rows_shape *s = join ? &step->u.join_rows.shape : &step->u.split_rows.shape;
    const void *const *bound = join ? t->inputs : (const void *const *)t->outputs;
    tmv_rows_shape part = *s;
    tmv_rows_piece pieces[TMV_TASK_MAX_BUFFERS];
    uint8_t *ptrs[TMV_TASK_MAX_BUFFERS]; /* the pieces' buffers at the part's first byte (partition checked the count) */
    const bool whole_rows = c0 == 0 && c1 == s->joined_bytes;
    uint32_t n = 0;
    for (uint32_t p = 0; p < s->piece_count; p++) {
        const tmv_rows_piece *q = &s->pieces[p];
        const uint64_t lo = q->offset > c0 ? q->offset : c0, end = q->offset + q->bytes, hi = end < c1 ? end : c1;
        if (lo >= hi)
            continue;
        pieces[n] = (tmv_rows_piece){n, hi - lo, lo - c0, q->pitch};
        ptrs[n++] = (uint8_t *)(uintptr_t)bound[q->buffer] + row * q->pitch + (lo - q->offset);
    }
    part.rows = rows;
    part.joined_bytes = c1 - c0;
    part.piece_count = n;
    part.pieces = pieces;
    part.tuning = &t->tuning;
    uint8_t *joined = (uint8_t *)(uintptr_t)(join ? t->outputs[0] : t->inputs[0]) + row * s->joined_pitch + c0;
    if (whole_rows && (join ? tmv_stage_join(step, &part, (const void *const *)ptrs, joined)
                            : tmv_stage_split(step, &part, joined, (void *const *)ptrs)))
        return; /* off a line (stage.h) */
    /* The step's kernel keeps its prepared state only for its own pieces;
     * any other kernel that runs a part must need none. */
    if (!whole_rows)
        part.state = NULL;
    const tmv_kernel *k = step->kernel;
    if ((!whole_rows && tmv_kernel_has_prepare(k)) || !tmv_kernel_accepts(k, &part)) {
        k = tmv_pick_first(k->primitive, t->op->isa, &part);
        if (tmv_kernel_has_prepare(k))
            k = tmv_pick_first(k->primitive, TMV_ISA_SCALAR, &part);
    }
    if (join)
        k->fn.join_rows.run(&part, (const void *const *)ptrs, joined);
    else
        k->fn.split_rows.run(&part, joined, (void *const *)ptrs);
}

static void rows_box(task *t, uint32_t level, const uint64_t *coords, uint64_t lo, uint64_t hi)
{
    const tmv_rows_shape *s =
        t->step->kind == TMV_STEP_JOIN_ROWS ? &t->step->u.join_rows.shape : &t->step->u.split_rows.shape;
    if (level == 0) /* whole rows */
        rows_part(t, lo, hi - lo, 0, s->joined_bytes);
    else /* 64-byte column chunks [lo, hi) of one row */
        rows_part(t, coords[0], 1, lo * 64, hi * 64 < s->joined_bytes ? hi * 64 : s->joined_bytes);
}

/* ---- GATHER_ND ---- */

static void gather_part(const tmv_gather_shape *g, uint32_t level, const uint64_t *coords, uint64_t lo,
                        uint64_t hi, tmv_gather_shape *part, uint64_t *index_off, uint64_t *input_off,
                        uint64_t *output_off)
{
    *part = *g;
    *index_off = box_offset(g->pos_index_strides, level, coords, lo);
    *input_off = box_offset(g->pos_input_strides, level, coords, lo);
    *output_off = box_offset(g->pos_output_strides, level, coords, lo);
    drop_dims(part->pos_sizes, part->pos_rank, level);
    drop_dims(part->pos_index_strides, part->pos_rank, level);
    drop_dims(part->pos_input_strides, part->pos_rank, level);
    drop_dims(part->pos_output_strides, part->pos_rank, level);
    part->pos_rank -= level;
    part->pos_sizes[0] = hi - lo;
}

static void gather_box(task *t, uint32_t level, const uint64_t *coords, uint64_t lo, uint64_t hi)
{
    tmv_gather_shape part;
    uint64_t index_off, input_off, output_off;
    gather_part(t->step->u.gather.shape, level, coords, lo, hi, &part, &index_off, &input_off, &output_off);
    part.tuning = &t->tuning;
    part.checked = true; /* tmv_step_check_task passed on every task first: the kernel reads the indices once */
    (void)t->step->kernel->fn.gather.run(&part, (const uint8_t *)t->inputs[0] + input_off,
                                         (const uint8_t *)t->inputs[1] + index_off,
                                         (uint8_t *)t->outputs[0] + output_off);
}

static void check_box(task *t, uint32_t level, const uint64_t *coords, uint64_t lo, uint64_t hi)
{
    tmv_gather_shape part;
    uint64_t index_off, input_off, output_off;
    gather_part(t->step->u.gather.shape, level, coords, lo, hi, &part, &index_off, &input_off, &output_off);
    t->in_range &= t->step->kernel->fn.gather.check(&part, (const uint8_t *)t->inputs[1] + index_off);
}

/* ---- tasks ---- */

/* Where task i of `tasks` starts: an even share of the extent, rounded down
 * to a whole unit (the last task ends at the extent). */
static uint64_t task_start(const tmv_step *step, uint32_t i, uint32_t tasks)
{
    if (i >= tasks)
        return step->split_extent;
    const uint64_t units = step->split_extent / step->split_unit;
    return units * i / tasks * step->split_unit;
}

static void run_boxes(task *t, box_fn *box, const uint64_t *sizes, uint64_t a, uint64_t b)
{
    uint64_t coords[TMV_SHAPE_MAX_DIMS]; /* a copy shape flattens up to 16 dims (TILE doubles the rank) */
    for_each_box(t, box, sizes, t->step->split_rank, 0, coords, a, b);
}

void tmv_step_run_task(const tmv_op *op, const tmv_step *step, const void *const *inputs, void *const *outputs,
                       uint32_t i, uint32_t tasks)
{
    const uint64_t a = task_start(step, i, tasks), b = task_start(step, i + 1, tasks);
    if (a == b)
        return;
    task t = {op, step, inputs, outputs, op->tuning, true};
    t.tuning.stream_threshold = op->tuning.stream_threshold / tasks ? op->tuning.stream_threshold / tasks : 1;
    switch (step->kind) {
    case TMV_STEP_COPY:
        if (step->split_rank == 0)
            copy_bytes(&t, a, b);
        else if (step->split_rank == 1)
            copy_dim_range(&t, a, b);
        else
            run_boxes(&t, copy_box, step->u.copy.shape.sizes, a, b);
        break;
    case TMV_STEP_JOIN_ROWS:
    case TMV_STEP_SPLIT_ROWS: {
        const tmv_rows_shape *s =
            step->kind == TMV_STEP_JOIN_ROWS ? &step->u.join_rows.shape : &step->u.split_rows.shape;
        const uint64_t sizes[2] = {s->rows, (s->joined_bytes + 63) / 64};
        run_boxes(&t, rows_box, sizes, a, b);
        break;
    }
    case TMV_STEP_GATHER: run_boxes(&t, gather_box, step->u.gather.shape->pos_sizes, a, b); break;
    }
}

bool tmv_step_check_task(const tmv_op *op, const tmv_step *step, const void *const *inputs, uint32_t i,
                         uint32_t tasks)
{
    const uint64_t a = task_start(step, i, tasks), b = task_start(step, i + 1, tasks);
    task t = {op, step, inputs, NULL, op->tuning, true};
    if (a < b)
        run_boxes(&t, check_box, step->u.gather.shape->pos_sizes, a, b);
    return t.in_range;
}
