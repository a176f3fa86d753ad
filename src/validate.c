/* validate.c - docs/SPEC.md's rules per operator: a status, a message naming the member, a validated op. */
#include <stdio.h>

#include "error.h"
#include "op.h"

/* Long enough for "outputs[4294967295]", the longest tensor name. */
#define NAME_LEN 48
/* "{4294967295,...}" for TMV_MAX_DIMS sizes. */
#define SHAPE_LEN (TMV_MAX_DIMS * 11 + 3)

/* ---- small helpers shared by the operators ------------------------------ */

/* a*b, or UINT64_MAX when it does not fit; no uint32 size can equal that, so
 * an overflowed expected size always reads as a mismatch. */
static uint64_t mul_saturating(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

static void format_indexed_name(char *buf, const char *array, uint32_t i)
{
    snprintf(buf, NAME_LEN, "%s[%u]", array, i);
}

/* Copies and checks one description; messages read "<op>: <name>.dtype ...". */
static tmv_status init_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op,
                              const char *name)
{
    char what[NAME_LEN + 32];
    snprintf(what, sizeof what, "%s: %s", op, name);
    return tmv_tensor_init(t, desc, what);
}

/* As init_tensor, and the tensor is written, so it must not alias itself. */
static tmv_status init_output_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op,
                                     const char *name)
{
    tmv_status status = init_tensor(t, desc, op, name);
    if (status != TMV_OK)
        return status;
    char what[NAME_LEN + 32];
    snprintf(what, sizeof what, "%s: %s", op, name);
    return tmv_tensor_check_injective(t, what);
}

static tmv_status expect_same_dtype(const char *op, const char *name, const tmv_tensor *t,
                                    const char *ref_name, const tmv_tensor *ref)
{
    if (t->dtype == ref->dtype)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dtype is %s but %s.dtype is %s", op, name,
                    tmv_dtype_name(t->dtype), ref_name, tmv_dtype_name(ref->dtype));
}

static tmv_status expect_same_dim_count(const char *op, const char *name, const tmv_tensor *t,
                                        const char *ref_name, const tmv_tensor *ref)
{
    if (t->dim_count == ref->dim_count)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dim_count is %u but %s.dim_count is %u", op,
                    name, t->dim_count, ref_name, ref->dim_count);
}

static tmv_status expect_dim_count(const char *op, const char *name, const tmv_tensor *t,
                                   uint32_t want)
{
    if (t->dim_count == want)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dim_count is %u but must be %u", op, name,
                    t->dim_count, want);
}

/* Every dimension but `axis` of t equals ref's (same dim_count already checked). */
static tmv_status expect_same_sizes_except_axis(const char *op, const char *name,
                                                const tmv_tensor *t, const char *ref_name,
                                                const tmv_tensor *ref, uint32_t axis)
{
    for (uint32_t d = 0; d < t->dim_count; d++)
        if (d != axis && t->sizes[d] != ref->sizes[d])
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.sizes[%u] is %u but %s.sizes[%u] is %u",
                            op, name, d, t->sizes[d], ref_name, d, ref->sizes[d]);
    return TMV_OK;
}

/* One member of a JOIN input / SPLIT output against the joined tensor. */
static tmv_status expect_slab_matches(const char *op, const char *name, const tmv_tensor *slab,
                                      const char *whole_name, const tmv_tensor *whole, uint32_t axis)
{
    tmv_status status = expect_same_dtype(op, name, slab, whole_name, whole);
    if (status == TMV_OK)
        status = expect_same_dim_count(op, name, slab, whole_name, whole);
    if (status == TMV_OK)
        status = expect_same_sizes_except_axis(op, name, slab, whole_name, whole, axis);
    return status;
}

static tmv_status expect_axis_in_range(const char *op, uint32_t axis, const char *name,
                                       const tmv_tensor *t)
{
    if (axis < t->dim_count)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: axis is %u but must be less than %s.dim_count %u",
                    op, axis, name, t->dim_count);
}

/* Sizes along axis of slabs[0..count) add up (in 64 bits: no wrap) to whole's. */
static tmv_status expect_axis_sum(const char *op, const char *slabs_name, const tmv_tensor *slabs,
                                  uint32_t count, const char *whole_name, const tmv_tensor *whole,
                                  uint32_t axis)
{
    uint64_t sum = 0; /* at most (2^32-1)^2: cannot wrap */
    for (uint32_t i = 0; i < count; i++)
        sum += slabs[i].sizes[axis];
    if (sum == whole->sizes[axis])
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                    "%s: %s[*].sizes[%u] (axis) add up to %llu but %s.sizes[%u] is %u", op,
                    slabs_name, axis, (unsigned long long)sum, whole_name, axis, whole->sizes[axis]);
}

/* Hands a finished op to the caller, or frees it so *out stays NULL. */
static tmv_status finish(tmv_op *op, tmv_status status, tmv_op **out)
{
    if (status != TMV_OK) {
        tmv_op_destroy(op);
        return status;
    }
    *out = op;
    return TMV_OK;
}

static void format_shape(char *buf, const uint32_t *sizes, uint32_t count)
{
    size_t used = 0;
    buf[used++] = '{';
    for (uint32_t d = 0; d < count; d++)
        used += (size_t)snprintf(buf + used, SHAPE_LEN - used, d ? ",%u" : "%u", sizes[d]);
    snprintf(buf + used, SHAPE_LEN - used, "}");
}

/* ---- JOIN ---------------------------------------------------------------- */

/* JOIN's inputs against its output, SPLIT's outputs against its input: the
 * axis in range, every other dim equal, the sizes along the axis adding up. */
static tmv_status check_slabs(const char *op, const char *slabs_name, const tmv_tensor *slabs,
                              uint32_t count, const char *whole_name, const tmv_tensor *whole,
                              uint32_t axis)
{
    char member[NAME_LEN];
    tmv_status status = expect_axis_in_range(op, axis, whole_name, whole);
    for (uint32_t i = 0; i < count && status == TMV_OK; i++) {
        format_indexed_name(member, slabs_name, i);
        status = expect_slab_matches(op, member, &slabs[i], whole_name, whole, axis);
    }
    if (status == TMV_OK)
        status = expect_axis_sum(op, slabs_name, slabs, count, whole_name, whole, axis);
    return status;
}

static tmv_status check_join(const tmv_join_desc *desc, tmv_op *op)
{
    static const char *const name = "join";
    char member[NAME_LEN];
    tmv_status status;
    for (uint32_t i = 0; i < desc->input_count; i++) {
        format_indexed_name(member, "inputs", i);
        if ((status = init_tensor(&op->inputs[i], &desc->inputs[i], name, member)) != TMV_OK)
            return status;
    }
    tmv_tensor *output = &op->outputs[0];
    if ((status = init_output_tensor(output, desc->output, name, "output")) != TMV_OK)
        return status;
    op->axis = desc->axis;
    return check_slabs(name, "inputs", op->inputs, desc->input_count, "output", output, desc->axis);
}

/* JOIN's input_count, SPLIT's output_count: 1..TMV_MAX_PIECES, checked before
 * the op, sized by it, is allocated. */
static tmv_status expect_piece_count(const char *op, const char *member, uint32_t count)
{
    if (count == 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s is 0 but must be > 0", op, member);
    if (count > TMV_MAX_PIECES)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s is %u but must be at most TMV_MAX_PIECES (%u)", op,
                        member, count, TMV_MAX_PIECES);
    return TMV_OK;
}

static tmv_status validate_join(const tmv_join_desc *desc, tmv_op **out)
{
    tmv_status status = expect_piece_count("join", "input_count", desc->input_count);
    if (status != TMV_OK)
        return status;
    if (desc->inputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "join: inputs is NULL but input_count is %u",
                        desc->input_count);
    tmv_op *op = tmv_op_alloc(TMV_OP_JOIN, desc->input_count, 1);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_join(desc, op), out);
}

/* ---- SPLIT --------------------------------------------------------------- */

static tmv_status check_split(const tmv_split_desc *desc, tmv_op *op)
{
    static const char *const name = "split";
    char member[NAME_LEN];
    tmv_status status;
    tmv_tensor *input = &op->inputs[0];
    if ((status = init_tensor(input, desc->input, name, "input")) != TMV_OK)
        return status;
    for (uint32_t o = 0; o < desc->output_count; o++) {
        format_indexed_name(member, "outputs", o);
        if ((status = init_output_tensor(&op->outputs[o], &desc->outputs[o], name, member)) != TMV_OK)
            return status;
    }
    op->axis = desc->axis;
    return check_slabs(name, "outputs", op->outputs, desc->output_count, "input", input, desc->axis);
}

static tmv_status validate_split(const tmv_split_desc *desc, tmv_op **out)
{
    tmv_status status = expect_piece_count("split", "output_count", desc->output_count);
    if (status != TMV_OK)
        return status;
    if (desc->outputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "split: outputs is NULL but output_count is %u",
                        desc->output_count);
    tmv_op *op = tmv_op_alloc(TMV_OP_SPLIT, 1, desc->output_count);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_split(desc, op), out);
}

/* ---- TILE ---------------------------------------------------------------- */

static tmv_status check_tile_sizes(const tmv_tensor *input, const tmv_tensor *output,
                                   const uint32_t *repeats)
{
    for (uint32_t d = 0; d < input->dim_count; d++) {
        uint64_t want = (uint64_t)input->sizes[d] * repeats[d]; /* < 2^64 */
        if (output->sizes[d] != want)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "tile: output.sizes[%u] is %u but input.sizes[%u] %u * repeats[%u] %u "
                            "is %llu", d, output->sizes[d], d, input->sizes[d], d, repeats[d],
                            (unsigned long long)want);
    }
    return TMV_OK;
}

static tmv_status check_tile(const tmv_tile_desc *desc, tmv_op *op)
{
    static const char *const name = "tile";
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    if ((status = init_tensor(input, desc->input, name, "input")) != TMV_OK ||
        (status = init_output_tensor(output, desc->output, name, "output")) != TMV_OK ||
        (status = expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = expect_same_dim_count(name, "output", output, "input", input)) != TMV_OK)
        return status;
    if (desc->repeats_count != input->dim_count)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tile: repeats_count is %u but input.dim_count is %u",
                        desc->repeats_count, input->dim_count);
    if (desc->repeats == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tile: repeats is NULL but repeats_count is %u",
                        desc->repeats_count);
    if ((status = check_tile_sizes(input, output, desc->repeats)) != TMV_OK)
        return status;
    for (uint32_t d = 0; d < input->dim_count; d++)
        op->repeats[d] = desc->repeats[d];
    return TMV_OK;
}

static tmv_status validate_tile(const tmv_tile_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_TILE, 1, 1);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_tile(desc, op), out);
}

/* ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE ------------------------------------- */

enum { DIM_N, DIM_C, DIM_H, DIM_W, DEPTH_SPACE_DIMS };
static const char *const nchw_names[DEPTH_SPACE_DIMS] = { "N", "C", "H", "W" };

/* Both operators share their members and the checks that do not depend on the direction. */
static tmv_status check_depth_space_members(const char *name, const tmv_tensor_desc *input_desc,
                                            const tmv_tensor_desc *output_desc, uint32_t block_size,
                                            tmv_depth_space_order order, tmv_op *op)
{
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    if ((status = init_tensor(input, input_desc, name, "input")) != TMV_OK ||
        (status = init_output_tensor(output, output_desc, name, "output")) != TMV_OK ||
        (status = expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = expect_dim_count(name, "input", input, DEPTH_SPACE_DIMS)) != TMV_OK ||
        (status = expect_dim_count(name, "output", output, DEPTH_SPACE_DIMS)) != TMV_OK)
        return status;
    if (block_size < 1)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: block_size is 0 but must be at least 1", name);
    /* The enum's underlying type is implementation-defined; compare as int so
     * both negative and too-large values are caught. */
    if ((int)order != TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW &&
        (int)order != TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: order is %d, which is no tmv_depth_space_order (0 or 1)", name, (int)order);
    op->block_size = block_size;
    op->order = order;
    return TMV_OK;
}

static tmv_status expect_divisible(const char *name, const char *tensor, uint32_t d, uint32_t size,
                                   uint64_t divisor, const char *divisor_name)
{
    if (size % divisor == 0)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.sizes[%u] (%s) is %u, not divisible by %s %llu",
                    name, tensor, d, nchw_names[d], size, divisor_name, (unsigned long long)divisor);
}

/* output.sizes[d] == want, where want came from `formula` (UINT64_MAX: overflowed). */
static tmv_status expect_output_size(const char *name, const tmv_tensor *output, uint32_t d,
                                     uint64_t want, const char *formula)
{
    if (output->sizes[d] == want)
        return TMV_OK;
    if (want == UINT64_MAX)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: output.sizes[%u] (%s) is %u but must be %s, which overflows 64 bits",
                        name, d, nchw_names[d], output->sizes[d], formula);
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: output.sizes[%u] (%s) is %u but must be %s = %llu",
                    name, d, nchw_names[d], output->sizes[d], formula, (unsigned long long)want);
}

static tmv_status check_space_to_depth(const tmv_space_to_depth_desc *desc, tmv_op *op)
{
    static const char *const name = "space_to_depth";
    tmv_status status = check_depth_space_members(name, desc->input, desc->output, desc->block_size,
                                                  desc->order, op);
    if (status != TMV_OK)
        return status;
    const tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    const uint32_t *in = input->sizes;
    const uint64_t b = desc->block_size;
    if ((status = expect_divisible(name, "input", DIM_H, in[DIM_H], b, "block_size")) != TMV_OK ||
        (status = expect_divisible(name, "input", DIM_W, in[DIM_W], b, "block_size")) != TMV_OK)
        return status;
    char formula[96];
    snprintf(formula, sizeof formula, "input N");
    if ((status = expect_output_size(name, output, DIM_N, in[DIM_N], formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input C %u * block_size %llu * block_size %llu", in[DIM_C],
             (unsigned long long)b, (unsigned long long)b);
    if ((status = expect_output_size(name, output, DIM_C, mul_saturating(in[DIM_C], b * b),
                                     formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input H %u / block_size %llu", in[DIM_H], (unsigned long long)b);
    if ((status = expect_output_size(name, output, DIM_H, in[DIM_H] / b, formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input W %u / block_size %llu", in[DIM_W], (unsigned long long)b);
    return expect_output_size(name, output, DIM_W, in[DIM_W] / b, formula);
}

static tmv_status check_depth_to_space(const tmv_depth_to_space_desc *desc, tmv_op *op)
{
    static const char *const name = "depth_to_space";
    tmv_status status = check_depth_space_members(name, desc->input, desc->output, desc->block_size,
                                                  desc->order, op);
    if (status != TMV_OK)
        return status;
    const tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    const uint32_t *in = input->sizes;
    const uint64_t b = desc->block_size, bb = b * b; /* < 2^64 */
    if ((status = expect_divisible(name, "input", DIM_C, in[DIM_C], bb, "block_size*block_size")) != TMV_OK)
        return status;
    char formula[96];
    snprintf(formula, sizeof formula, "input N");
    if ((status = expect_output_size(name, output, DIM_N, in[DIM_N], formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input C %u / (block_size %llu * block_size %llu)", in[DIM_C],
             (unsigned long long)b, (unsigned long long)b);
    if ((status = expect_output_size(name, output, DIM_C, in[DIM_C] / bb, formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input H %u * block_size %llu", in[DIM_H], (unsigned long long)b);
    if ((status = expect_output_size(name, output, DIM_H, in[DIM_H] * b, formula)) != TMV_OK)
        return status;
    snprintf(formula, sizeof formula, "input W %u * block_size %llu", in[DIM_W], (unsigned long long)b);
    return expect_output_size(name, output, DIM_W, in[DIM_W] * b, formula);
}

static tmv_status validate_space_to_depth(const tmv_space_to_depth_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_SPACE_TO_DEPTH, 1, 1);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_space_to_depth(desc, op), out);
}

static tmv_status validate_depth_to_space(const tmv_depth_to_space_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_DEPTH_TO_SPACE, 1, 1);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_depth_to_space(desc, op), out);
}

/* ---- GATHER_ND ----------------------------------------------------------- */

static bool is_index_dtype(tmv_dtype dtype)
{
    return dtype == TMV_DTYPE_INT32 || dtype == TMV_DTYPE_INT64 || dtype == TMV_DTYPE_UINT32 ||
           dtype == TMV_DTYPE_UINT64;
}

static tmv_status check_gather_nd_tensors(const tmv_gather_nd_desc *desc, tmv_op *op)
{
    static const char *const name = "gather_nd";
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *indices = &op->inputs[1], *output = &op->outputs[0];
    if ((status = init_tensor(input, desc->input, name, "input")) != TMV_OK ||
        (status = init_tensor(indices, desc->indices, name, "indices")) != TMV_OK ||
        (status = init_output_tensor(output, desc->output, name, "output")) != TMV_OK)
        return status;
    if (!is_index_dtype(indices->dtype))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: indices.dtype is %s, not an index type (INT32, INT64, UINT32 "
                        "or UINT64)", tmv_dtype_name(indices->dtype));
    if ((status = expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = expect_same_dim_count(name, "indices", indices, "input", input)) != TMV_OK ||
        (status = expect_same_dim_count(name, "output", output, "input", input)) != TMV_OK)
        return status;
    return TMV_OK;
}

static tmv_status expect_meaningful_count(const char *member, uint32_t count, uint32_t n)
{
    if (count >= 1 && count <= n)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                    "gather_nd: %s is %u but must be 1 to %u (the tensors' dim_count)", member,
                    count, n);
}

/* Dimensions before the last `meaningful` ones are placeholders and must be 1. */
static tmv_status expect_leading_ones(const char *tensor, const tmv_tensor *t, uint32_t meaningful,
                                      const char *count_member)
{
    for (uint32_t d = 0; d + meaningful < t->dim_count; d++)
        if (t->sizes[d] != 1)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "gather_nd: %s.sizes[%u] is %u but must be 1: only the last %s %u "
                            "dimensions are meaningful", tensor, d, t->sizes[d], count_member,
                            meaningful);
    return TMV_OK;
}

/* r, q, b and k against each other and the batch dimensions. */
static tmv_status check_gather_nd_counts(const tmv_gather_nd_desc *desc, const tmv_tensor *input,
                                         const tmv_tensor *indices)
{
    const uint32_t n = input->dim_count, r = desc->input_dim_count, q = desc->indices_dim_count,
                   b = desc->batch_dim_count;
    tmv_status status;
    if ((status = expect_meaningful_count("input_dim_count", r, n)) != TMV_OK ||
        (status = expect_meaningful_count("indices_dim_count", q, n)) != TMV_OK ||
        (status = expect_leading_ones("input", input, r, "input_dim_count")) != TMV_OK ||
        (status = expect_leading_ones("indices", indices, q, "indices_dim_count")) != TMV_OK)
        return status;
    const uint32_t k = indices->sizes[n - 1];
    if (k < 1)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: indices.sizes[%u] (k, the index tuple length) is 0 but must be "
                        "at least 1", n - 1);
    if (b >= (r < q ? r : q))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: batch_dim_count is %u but must be less than input_dim_count %u "
                        "and indices_dim_count %u", b, r, q);
    if ((uint64_t)b + k > r)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: batch_dim_count %u + k %u (indices.sizes[%u]) is %llu, more "
                        "than input_dim_count %u", b, k, n - 1, (unsigned long long)b + k, r);
    for (uint32_t i = 0; i < b; i++)
        if (input->sizes[n - r + i] != indices->sizes[n - q + i])
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "gather_nd: batch dimension %u: input.sizes[%u] is %u but "
                            "indices.sizes[%u] is %u", i, n - r + i, input->sizes[n - r + i],
                            n - q + i, indices->sizes[n - q + i]);
    return TMV_OK;
}

/* The output must be indices' meaningful dims but the last, then input's
 * meaningful dims after the first b + k, right-aligned with leading 1s. */
static tmv_status check_gather_nd_output(const tmv_gather_nd_desc *desc, const tmv_tensor *input,
                                         const tmv_tensor *indices, const tmv_tensor *output)
{
    const uint32_t n = input->dim_count, r = desc->input_dim_count, q = desc->indices_dim_count,
                   b = desc->batch_dim_count, k = indices->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - b - k); /* each term < n after check_gather_nd_counts */
    if (m > n)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: the output needs (indices_dim_count %u - 1) + (input_dim_count "
                        "%u - batch_dim_count %u - k %u) = %u dimensions but dim_count is %u",
                        q, r, b, k, m, n);
    uint32_t want[TMV_MAX_DIMS];
    uint32_t d = 0;
    for (; d < n - m; d++)
        want[d] = 1;
    for (uint32_t i = 0; i + 1 < q; i++)
        want[d++] = indices->sizes[n - q + i];
    for (uint32_t i = b + k; i < r; i++)
        want[d++] = input->sizes[n - r + i];
    for (d = 0; d < n; d++) {
        if (output->sizes[d] != want[d]) {
            char shape[SHAPE_LEN];
            format_shape(shape, want, n);
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "gather_nd: output.sizes[%u] is %u but must be %u (output shape %s)", d,
                            output->sizes[d], want[d], shape);
        }
    }
    return TMV_OK;
}

static tmv_status check_gather_nd(const tmv_gather_nd_desc *desc, tmv_op *op)
{
    tmv_status status;
    const tmv_tensor *input = &op->inputs[0], *indices = &op->inputs[1], *output = &op->outputs[0];
    if ((status = check_gather_nd_tensors(desc, op)) != TMV_OK ||
        (status = check_gather_nd_counts(desc, input, indices)) != TMV_OK ||
        (status = check_gather_nd_output(desc, input, indices, output)) != TMV_OK)
        return status;
    op->input_dim_count = desc->input_dim_count;
    op->indices_dim_count = desc->indices_dim_count;
    op->batch_dim_count = desc->batch_dim_count;
    return TMV_OK;
}

static tmv_status validate_gather_nd(const tmv_gather_nd_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_GATHER_ND, 2, 1);
    if (op == NULL)
        return TMV_ERR_OUT_OF_MEMORY;
    return finish(op, check_gather_nd(desc, op), out);
}

/* ---- entry point --------------------------------------------------------- */

static bool is_known_op_type(tmv_op_type type)
{
    switch (type) {
    case TMV_OP_JOIN: case TMV_OP_SPLIT: case TMV_OP_TILE: case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE: case TMV_OP_GATHER_ND:
        return true;
    }
    return false;
}

static tmv_status validate_by_type(const tmv_op_desc *desc, tmv_op **out)
{
    switch (desc->type) {
    case TMV_OP_JOIN: return validate_join(desc->desc, out);
    case TMV_OP_SPLIT: return validate_split(desc->desc, out);
    case TMV_OP_TILE: return validate_tile(desc->desc, out);
    case TMV_OP_SPACE_TO_DEPTH: return validate_space_to_depth(desc->desc, out);
    case TMV_OP_DEPTH_TO_SPACE: return validate_depth_to_space(desc->desc, out);
    case TMV_OP_GATHER_ND: return validate_gather_nd(desc->desc, out);
    }
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: desc->type is %d, which is no tmv_op_type",
                    (int)desc->type);
}

tmv_status tmv_validate(const tmv_op_desc *desc, tmv_op **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: out is NULL");
    *out = NULL;
    if (desc == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: desc is NULL");
    /* The type comes before desc->desc so that later messages can name the operator. */
    if (!is_known_op_type(desc->type))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "tmv_op_create: desc->type is %d, which is no tmv_op_type", (int)desc->type);
    const char *name = tmv_op_name(desc->type);
    if ((desc->flags & ~(uint32_t)TMV_OP_FLAG_CLAMP_INDICES) != 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: flags is 0x%x; bits 0x%x are no tmv_op_flags", name, desc->flags,
                        desc->flags & ~(uint32_t)TMV_OP_FLAG_CLAMP_INDICES);
    if (desc->desc == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: desc->desc is NULL", name);
    tmv_status status = validate_by_type(desc, out);
    if (status == TMV_OK)
        (*out)->flags = desc->flags;
    return status;
}
