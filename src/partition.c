/* partition.c - deciding at create how each plan step splits into balanced, independent tasks.
 *
 * A step's split extent is the flattened index over its outer dims (rows of
 * a JOIN/SPLIT, outer dims of a copy, index tuples of a gather), or the bytes
 * of a single contiguous run; a task is a run of whole split units of it
 * (task.c cuts it into boxes). The cost model is one number, task_min_bytes:
 * a step gets at most bytes / task_min_bytes tasks, so an 8 KiB operator is
 * one task, runs on the calling thread and never calls the pool. */
#include "partition.h"

/* Elements of a dim whose byte stride is `stride` that make a multiple of 64
 * bytes: tasks cut there write whole cache lines of their own (when the
 * buffer is 64-byte aligned), and streaming stores stay aligned. */
static uint64_t line_unit(uint64_t stride)
{
    uint64_t unit = 1;
    while (unit < 64 && (stride * unit) % 64 != 0)
        unit *= 2;
    return (stride * unit) % 64 == 0 ? unit : 1;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Flattens outer dims of `sizes` (at most `dims` of them) until their
 * product gives `enough` units, the unit being whole cache lines of the
 * last dim taken (`strides`: its write strides). */
static void split_outer(tmv_step *step, const uint64_t *sizes, const uint64_t *strides, uint32_t dims,
                        uint64_t enough)
{
    uint64_t extent = 1, unit = 1;
    uint32_t k = 0;
    while (k < dims) {
        extent *= sizes[k];
        unit = line_unit(strides[k]);
        k++;
        if (extent / unit >= enough)
            break;
    }
    step->split_rank = k;
    step->split_extent = extent;
    step->split_unit = unit;
}

/* A copy keeps whole the dims its kernel needs: the two inner dims of a
 * (de)interleave block (a part of its B dim would be another primitive),
 * the inner dim of a transpose (a run of its rows is a transpose of fewer
 * rows, written as a column strip cut at whole lines). A fill splits
 * anywhere (a run of its repeats is a fill of the same element); a rank-0
 * copy (one contiguous run) splits by bytes. */
static void split_copy(tmv_step *step, uint64_t enough)
{
    const tmv_copy_shape *s = &step->u.copy.shape;
    if (s->rank == 0) {
        step->split_rank = 0;
        step->split_extent = s->elem_bytes;
        step->split_unit = 64;
        return;
    }
    const tmv_primitive p = step->kernel->primitive;
    const uint32_t whole = p == TMV_PRIMITIVE_COPY || p == TMV_PRIMITIVE_FILL ? 0 : p == TMV_PRIMITIVE_TRANSPOSE ? 1 : 2;
    if (s->rank <= whole)
        return;
    /* Alone, the longest dim before the innermost: a task then reads and
     * writes long runs even where the outermost dim is short and interleaves
     * the tensors finely (SPACE_TO_DEPTH's block-row dim of 2, whose halves
     * are alternate input rows: split there, both tasks read every line at
     * DRAM size and two threads ran 0.86x one). */
    const uint32_t last = s->rank - (whole > 1 ? whole : 1);
    uint32_t longest = 0;
    for (uint32_t d = 1; d < last; d++)
        if (s->sizes[d] > s->sizes[longest])
            longest = d;
    const uint64_t unit = line_unit(s->dst_strides[longest]);
    if (last > 0 && s->sizes[longest] / unit >= enough) {
        step->split_rank = 1;
        step->split_dim = longest;
        step->split_extent = s->sizes[longest];
        step->split_unit = unit;
        return;
    }
    split_outer(step, s->sizes, s->dst_strides, s->rank - whole, enough);
}

/* Rows of a JOIN/SPLIT, or, when there are too few of them (one row per
 * input along the outer axis), rows x 64-byte column chunks of the joined
 * row: split_rank 1 or 2. */
static void split_rows(tmv_step *step, uint32_t buffers, uint64_t enough)
{
    const tmv_rows_shape *s =
        step->kind == TMV_STEP_JOIN_ROWS ? &step->u.join_rows.shape : &step->u.split_rows.shape;
    if (buffers > TMV_TASK_MAX_BUFFERS)
        return;
    const uint64_t unit = line_unit(s->joined_pitch), chunks = (s->joined_bytes + 63) / 64;
    if (s->rows / unit >= enough || chunks < 2) {
        step->split_rank = 1;
        step->split_extent = s->rows;
        step->split_unit = unit;
    } else {
        step->split_rank = 2;
        step->split_extent = s->rows * chunks;
        step->split_unit = 1;
    }
}

static uint64_t step_bytes(const tmv_op *op, const tmv_step *step)
{
    switch (step->kind) {
    case TMV_STEP_COPY: return tmv_shape_bytes(&step->u.copy.shape);
    case TMV_STEP_JOIN_ROWS: return step->u.join_rows.shape.rows * step->u.join_rows.shape.joined_bytes;
    case TMV_STEP_SPLIT_ROWS: return step->u.split_rows.shape.rows * step->u.split_rows.shape.joined_bytes;
    case TMV_STEP_GATHER: return op->outputs[0].extent_bytes;
    }
    return 0;
}

void tmv_plan_partition(tmv_op *op)
{
    op->bytes = 0;
    for (uint32_t i = 0; i < op->step_count; i++) {
        tmv_step *step = &op->steps[i];
        step->bytes = step_bytes(op, step);
        op->bytes += step->bytes;
        const uint64_t want = min_u64(step->bytes / op->tuning.task_min_bytes, TMV_MAX_TASKS);
        const uint64_t enough = min_u64(want, TMV_PLANNED_THREADS);
        step->split_extent = 0;
        step->split_unit = 1;
        step->split_dim = 0;
        switch (step->kind) {
        case TMV_STEP_COPY: split_copy(step, enough); break;
        case TMV_STEP_JOIN_ROWS: split_rows(step, op->input_count, enough); break;
        case TMV_STEP_SPLIT_ROWS: split_rows(step, op->output_count, enough); break;
        case TMV_STEP_GATHER: {
            const tmv_gather_shape *g = step->u.gather.shape;
            split_outer(step, g->pos_sizes, g->pos_output_strides, g->pos_rank, enough);
            break;
        }
        }
        const uint64_t tasks = min_u64(want, step->split_extent / step->split_unit);
        step->max_tasks = tasks < 1 ? 1 : (uint32_t)tasks;
    }
}
