/* lower_join_split.c - JOIN and SPLIT onto row-wise joins/splits, or one strided copy per piece. */
#include <stdlib.h>

#include "cost.h"
#include "error.h"
#include "lower.h"

/* The two ways a tensor can be rows along `axis`: the dims from the axis on
 * packed into each row, the dims before it the rows (row-major, NCHW's
 * channels); or the axis alone packed, every other dim a row (channels
 * last: NHWC's channels, described with strides {H*W*C, 1, W*C, C}). */
typedef enum rows_layout { ROWS_TRAILING, ROWS_AXIS_ONLY } rows_layout;

static bool is_row_dim(rows_layout layout, uint32_t axis, uint32_t d)
{
    return layout == ROWS_TRAILING ? d < axis : d != axis;
}

/* t viewed as rows in `layout`: the row's dims packed (row_bytes each), the
 * row dims, innermost first, stepping by one pitch. False if the layout is
 * not that simple. */
static bool as_rows(const tmv_tensor *t, uint32_t axis, rows_layout layout, uint64_t *row_bytes, uint64_t *pitch)
{
    uint64_t packed = 1;
    for (uint32_t d = t->dim_count; d-- > axis;) {
        if (is_row_dim(layout, axis, d))
            continue;
        if (t->sizes[d] > 1 && t->strides[d] != packed)
            return false;
        packed *= t->sizes[d];
    }
    *row_bytes = packed * t->elem_size;
    *pitch = *row_bytes;
    uint64_t next = 0; /* the stride, in bytes, the next outer row dim must have */
    bool first = true;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        if (!is_row_dim(layout, axis, d) || t->sizes[d] == 1)
            continue;
        uint64_t stride = t->strides[d] * t->elem_size;
        if (first)
            *pitch = stride;
        else if (stride != next)
            return false;
        first = false;
        next = stride * t->sizes[d];
    }
    return true;
}

/* The piece tensors (JOIN inputs / SPLIT outputs) and the joined tensor. */
typedef struct pieces_view {
    const tmv_tensor *pieces;
    uint32_t          count;
    const tmv_tensor *joined;
} pieces_view;

/* Whether the joined tensor and every non-empty piece are rows in `layout`. */
static bool all_rows(const tmv_op *op, pieces_view v, rows_layout layout)
{
    uint64_t row_bytes, pitch;
    if (!as_rows(v.joined, op->axis, layout, &row_bytes, &pitch))
        return false;
    for (uint32_t k = 0; k < v.count; k++)
        if (!v.pieces[k].empty && !as_rows(&v.pieces[k], op->axis, layout, &row_bytes, &pitch))
            return false;
    return true;
}

/* Fills op->pieces and *shape if every non-empty piece and the joined tensor
 * are simple rows, all in one layout, and there are at least two pieces (one
 * piece is a plain copy, which normalization turns into a single memcpy
 * where it can). */
static tmv_status try_rows(tmv_op *op, pieces_view v, tmv_rows_shape *shape, bool *ok)
{
    *ok = false;
    uint32_t nonempty = 0;
    for (uint32_t k = 0; k < v.count; k++)
        nonempty += !v.pieces[k].empty;
    if (nonempty < 2)
        return TMV_OK;
    rows_layout layout = ROWS_TRAILING;
    if (!all_rows(op, v, layout)) {
        layout = ROWS_AXIS_ONLY;
        if (!all_rows(op, v, layout))
            return TMV_OK;
    }
    as_rows(v.joined, op->axis, layout, &shape->joined_bytes, &shape->joined_pitch);
    op->pieces = calloc(nonempty, sizeof *op->pieces);
    if (op->pieces == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "%s: out of memory planning %u pieces",
                        tmv_op_name(op->type), nonempty);
    uint64_t offset = 0;
    for (uint32_t k = 0, p = 0; k < v.count; k++) {
        if (v.pieces[k].empty)
            continue;
        tmv_rows_piece *piece = &op->pieces[p++];
        as_rows(&v.pieces[k], op->axis, layout, &piece->bytes, &piece->pitch);
        piece->buffer = k;
        piece->offset = offset;
        offset += piece->bytes;
    }
    shape->rows = 1;
    for (uint32_t d = 0; d < v.joined->dim_count; d++)
        if (is_row_dim(layout, op->axis, d))
            shape->rows *= v.joined->sizes[d];
    shape->piece_count = nonempty;
    shape->pieces = op->pieces;
    *ok = true;
    return TMV_OK;
}

/* Byte offset in the joined tensor of the first element of a piece that
 * starts `along` elements along the axis (the sum of the earlier pieces'
 * sizes there). */
static uint64_t joined_offset(const tmv_op *op, pieces_view v, uint64_t along)
{
    return along * v.joined->strides[op->axis] * v.joined->elem_size;
}

/* The copy of piece k between it and the joined tensor, `along` elements
 * along the axis there; *offset its byte offset in the joined tensor. */
static tmv_copy_shape piece_copy(const tmv_op *op, pieces_view v, bool join, uint32_t k, uint64_t along,
                                 uint64_t *offset)
{
    const tmv_tensor *piece = &v.pieces[k];
    *offset = joined_offset(op, v, along);
    return join ? tmv_shape_of(piece, piece, v.joined) : tmv_shape_of(piece, v.joined, piece);
}

/* The kernel a row-wise JOIN or SPLIT of `shape` would run. */
static const tmv_kernel *rows_kernel(const tmv_op *op, const tmv_rows_shape *shape, bool join)
{
    return tmv_pick(join ? TMV_PRIMITIVE_JOIN_ROWS : TMV_PRIMITIVE_SPLIT_ROWS, op->isa, shape);
}

/* Whether a copy per piece is, by the cost model, clearly cheaper than the
 * row-wise step (rows kernels pay per piece row; a few long pieces are a
 * few memcpy-speed copies), each piece priced within the whole step's
 * working set. False when either side cannot be rated. The
 * sum stops once it is too large, and a piece shaped like the one before
 * (the thousands of equal pieces of a many-way SPLIT) costs what it did. */
static bool pieces_cheaper(const tmv_op *op, pieces_view v, bool join, tmv_rows_shape *shape)
{
    shape->tuning = &op->tuning;
    const double rows_ns = tmv_cost_of(rows_kernel(op, shape, join), shape);
    if (rows_ns < 0)
        return false;
    /* the pieces' copies run one after another over the whole JOIN's bytes */
    const double working_set = tmv_cost_working_set(join ? TMV_PRIMITIVE_JOIN_ROWS : TMV_PRIMITIVE_SPLIT_ROWS, shape,
                                                    tmv_cost_rows_features(shape));
    const double bound = TMV_COST_SWITCH_RATIO * rows_ns;
    double pieces_ns = 0, ns = 0;
    uint64_t along = 0, offset;
    tmv_copy_shape previous = {0};
    for (uint32_t k = 0; k < v.count && pieces_ns < bound; k++) {
        tmv_copy_shape copy = piece_copy(op, v, join, k, along, &offset);
        along += v.pieces[k].sizes[op->axis];
        if (!tmv_shape_normalize(&copy))
            continue;
        copy.tuning = &op->tuning;
        if (k == 0 || !tmv_shape_same_geometry(&copy, &previous))
            ns = tmv_cost_of_within(tmv_pick_copy(op->isa, &copy), &copy, working_set);
        if (ns < 0)
            return false;
        previous = copy;
        pieces_ns += ns;
    }
    return pieces_ns < bound;
}

/* Appends the one step of a row-wise JOIN or SPLIT, with its kernel's state. */
static tmv_status add_rows_step(tmv_op *op, const tmv_rows_shape *shape, bool join)
{
    tmv_step *step = &op->steps[op->step_count++];
    tmv_rows_shape *planned = join ? &step->u.join_rows.shape : &step->u.split_rows.shape;
    *planned = *shape;
    planned->tuning = &op->tuning;
    step->kind = join ? TMV_STEP_JOIN_ROWS : TMV_STEP_SPLIT_ROWS;
    tmv_step_use(step, rows_kernel(op, planned, join));
    return tmv_plan_prepare(op, step, planned, &planned->state);
}

/* JOIN and SPLIT mirror each other: the pieces are JOIN's inputs and its
 * output the joined tensor, or SPLIT's outputs and its input. */
static tmv_status lower_pieces(tmv_op *op, bool join)
{
    pieces_view v = join ? (pieces_view){op->inputs, op->input_count, &op->outputs[0]}
                         : (pieces_view){op->outputs, op->output_count, &op->inputs[0]};
    tmv_rows_shape shape = {0};
    bool rows;
    tmv_status status = try_rows(op, v, &shape, &rows);
    if (status != TMV_OK)
        return status;
    rows = rows && !pieces_cheaper(op, v, join, &shape);
    status = tmv_plan_reserve(op, rows ? 1 : v.count);
    if (status != TMV_OK)
        return status;
    if (rows)
        return add_rows_step(op, &shape, join);
    uint64_t along = 0, offset; /* running sum of the pieces' sizes along the axis */
    for (uint32_t k = 0; k < v.count; k++) {
        tmv_copy_shape copy = piece_copy(op, v, join, k, along, &offset);
        along += v.pieces[k].sizes[op->axis];
        status = join ? tmv_plan_add_copy(op, copy, k, 0, 0, offset) : tmv_plan_add_copy(op, copy, 0, offset, k, 0);
        if (status != TMV_OK)
            return status;
    }
    return TMV_OK;
}

tmv_status tmv_lower_join(tmv_op *op)
{
    return lower_pieces(op, true);
}

tmv_status tmv_lower_split(tmv_op *op)
{
    return lower_pieces(op, false);
}
