/* validate_depth_space.c - SPACE_TO_DEPTH's and DEPTH_TO_SPACE's rules (docs/SPEC.md 5): 4-D {N,C,H,W}, block_size, order. */
#include <stdio.h>

#include "error.h"
#include "validate.h"
#include "validate_common.h"

enum { DIM_N, DIM_C, DIM_H, DIM_W, DEPTH_SPACE_DIMS };
static const char *const nchw_names[DEPTH_SPACE_DIMS] = { "N", "C", "H", "W" };

/* The output's sizes as the input and block size give them, each with the
 * formula that gave it for messages (UINT64_MAX: it overflowed 64 bits). */
typedef struct expected_shape {
    uint64_t sizes[DEPTH_SPACE_DIMS];
    char     formulas[DEPTH_SPACE_DIMS][96];
} expected_shape;

static tmv_status check_block_size_and_order(const char *name, uint32_t block_size,
                                             tmv_depth_space_order order)
{
    if (block_size < 1)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: block_size is 0 but must be at least 1", name);
    /* The enum's underlying type is implementation-defined; compare as int so
     * both negative and too-large values are caught. */
    if ((int)order != TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW &&
        (int)order != TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: order is %d, which is no tmv_depth_space_order (0 or 1)", name, (int)order);
    return TMV_OK;
}

/* Both operators share their members and the checks that do not depend on the direction. */
static tmv_status check_depth_space_members(const char *name, const tmv_tensor_desc *input_desc,
                                            const tmv_tensor_desc *output_desc, uint32_t block_size,
                                            tmv_depth_space_order order, tmv_op *op)
{
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    if ((status = tmv_init_tensor(input, input_desc, name, "input")) != TMV_OK ||
        (status = tmv_init_output_tensor(output, output_desc, name, "output")) != TMV_OK ||
        (status = tmv_expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = tmv_expect_dim_count(name, "input", input, DEPTH_SPACE_DIMS)) != TMV_OK ||
        (status = tmv_expect_dim_count(name, "output", output, DEPTH_SPACE_DIMS)) != TMV_OK ||
        (status = check_block_size_and_order(name, block_size, order)) != TMV_OK)
        return status;
    op->block_size = block_size;
    op->order = order;
    return TMV_OK;
}

/* Inference's share of check_depth_space_members: the input and the members. */
static tmv_status check_depth_space_input(const char *name, const tmv_tensor_desc *input_desc,
                                          uint32_t block_size, tmv_depth_space_order order,
                                          tmv_tensor *input)
{
    tmv_status status;
    if ((status = tmv_init_tensor(input, input_desc, name, "input")) != TMV_OK ||
        (status = tmv_expect_dim_count(name, "input", input, DEPTH_SPACE_DIMS)) != TMV_OK)
        return status;
    return check_block_size_and_order(name, block_size, order);
}

static tmv_status expect_divisible(const char *name, const char *tensor, uint32_t d, uint32_t size,
                                   uint64_t divisor, const char *divisor_name)
{
    if (size % divisor == 0)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.sizes[%u] (%s) is %u, not divisible by %s %llu",
                    name, tensor, d, nchw_names[d], size, divisor_name, (unsigned long long)divisor);
}

static tmv_status space_to_depth_shape(const tmv_tensor *input, uint32_t block_size, expected_shape *e)
{
    static const char *const name = "space_to_depth";
    const uint32_t *in = input->sizes;
    const uint64_t b = block_size;
    tmv_status status;
    if ((status = expect_divisible(name, "input", DIM_H, in[DIM_H], b, "block_size")) != TMV_OK ||
        (status = expect_divisible(name, "input", DIM_W, in[DIM_W], b, "block_size")) != TMV_OK)
        return status;
    e->sizes[DIM_N] = in[DIM_N];
    snprintf(e->formulas[DIM_N], sizeof e->formulas[DIM_N], "input N");
    e->sizes[DIM_C] = tmv_mul_saturating(in[DIM_C], b * b);
    snprintf(e->formulas[DIM_C], sizeof e->formulas[DIM_C], "input C %u * block_size %llu * block_size %llu",
             in[DIM_C], (unsigned long long)b, (unsigned long long)b);
    e->sizes[DIM_H] = in[DIM_H] / b;
    snprintf(e->formulas[DIM_H], sizeof e->formulas[DIM_H], "input H %u / block_size %llu", in[DIM_H],
             (unsigned long long)b);
    e->sizes[DIM_W] = in[DIM_W] / b;
    snprintf(e->formulas[DIM_W], sizeof e->formulas[DIM_W], "input W %u / block_size %llu", in[DIM_W],
             (unsigned long long)b);
    return TMV_OK;
}

static tmv_status depth_to_space_shape(const tmv_tensor *input, uint32_t block_size, expected_shape *e)
{
    static const char *const name = "depth_to_space";
    const uint32_t *in = input->sizes;
    const uint64_t b = block_size, bb = b * b; /* < 2^64 */
    tmv_status status = expect_divisible(name, "input", DIM_C, in[DIM_C], bb, "block_size*block_size");
    if (status != TMV_OK)
        return status;
    e->sizes[DIM_N] = in[DIM_N];
    snprintf(e->formulas[DIM_N], sizeof e->formulas[DIM_N], "input N");
    e->sizes[DIM_C] = in[DIM_C] / bb;
    snprintf(e->formulas[DIM_C], sizeof e->formulas[DIM_C], "input C %u / (block_size %llu * block_size %llu)",
             in[DIM_C], (unsigned long long)b, (unsigned long long)b);
    e->sizes[DIM_H] = in[DIM_H] * b;
    snprintf(e->formulas[DIM_H], sizeof e->formulas[DIM_H], "input H %u * block_size %llu", in[DIM_H],
             (unsigned long long)b);
    e->sizes[DIM_W] = in[DIM_W] * b;
    snprintf(e->formulas[DIM_W], sizeof e->formulas[DIM_W], "input W %u * block_size %llu", in[DIM_W],
             (unsigned long long)b);
    return TMV_OK;
}

/* The output's sizes equal the expected ones, N first. */
static tmv_status expect_output_shape(const char *name, const tmv_tensor *output, const expected_shape *e)
{
    for (uint32_t d = 0; d < DEPTH_SPACE_DIMS; d++) {
        if (output->sizes[d] == e->sizes[d])
            continue;
        if (e->sizes[d] == UINT64_MAX)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: output.sizes[%u] (%s) is %u but must be %s, which overflows 64 bits",
                            name, d, nchw_names[d], output->sizes[d], e->formulas[d]);
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: output.sizes[%u] (%s) is %u but must be %s = %llu",
                        name, d, nchw_names[d], output->sizes[d], e->formulas[d],
                        (unsigned long long)e->sizes[d]);
    }
    return TMV_OK;
}

/* The expected sizes as uint32_t sizes, or the first that does not fit. */
static tmv_status expected_sizes_fit(const char *name, const expected_shape *e, uint32_t *dim_count,
                                     uint32_t *sizes)
{
    for (uint32_t d = 0; d < DEPTH_SPACE_DIMS; d++) {
        if (e->sizes[d] > UINT32_MAX)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: output.sizes[%u] (%s) would be %s = %llu, more than a uint32_t size holds",
                            name, d, nchw_names[d], e->formulas[d], (unsigned long long)e->sizes[d]);
        sizes[d] = (uint32_t)e->sizes[d];
    }
    *dim_count = DEPTH_SPACE_DIMS;
    return TMV_OK;
}

/* SPACE_TO_DEPTH and DEPTH_TO_SPACE have the same members, checked the same
 * way: one call's operator, its name for messages and its expected shape. */
typedef struct depth_space {
    tmv_op_type type;
    const char *name;
    tmv_status (*shape)(const tmv_tensor *input, uint32_t block_size, expected_shape *e);
    const tmv_tensor_desc *input, *output;
    uint32_t block_size;
    tmv_depth_space_order order;
} depth_space;

static depth_space space_to_depth(const tmv_space_to_depth_desc *desc)
{
    return (depth_space){TMV_OP_SPACE_TO_DEPTH, "space_to_depth", space_to_depth_shape,
                         desc->input, desc->output, desc->block_size, desc->order};
}

static depth_space depth_to_space(const tmv_depth_to_space_desc *desc)
{
    return (depth_space){TMV_OP_DEPTH_TO_SPACE, "depth_to_space", depth_to_space_shape,
                         desc->input, desc->output, desc->block_size, desc->order};
}

static tmv_status check_depth_space(depth_space ds, tmv_op *op)
{
    expected_shape e;
    tmv_status status;
    if ((status = check_depth_space_members(ds.name, ds.input, ds.output, ds.block_size, ds.order, op)) != TMV_OK ||
        (status = ds.shape(&op->inputs[0], ds.block_size, &e)) != TMV_OK)
        return status;
    return expect_output_shape(ds.name, &op->outputs[0], &e);
}

static tmv_status validate_depth_space(depth_space ds, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(ds.type, 1, 1);
    return tmv_validate_finish(op, op == NULL ? TMV_ERR_OUT_OF_MEMORY : check_depth_space(ds, op), out);
}

static tmv_status infer_depth_space(depth_space ds, uint32_t *dim_count, uint32_t *sizes)
{
    tmv_tensor input;
    expected_shape e;
    tmv_status status;
    if ((status = check_depth_space_input(ds.name, ds.input, ds.block_size, ds.order, &input)) != TMV_OK ||
        (status = ds.shape(&input, ds.block_size, &e)) != TMV_OK)
        return status;
    return expected_sizes_fit(ds.name, &e, dim_count, sizes);
}

tmv_status tmv_validate_space_to_depth(const tmv_space_to_depth_desc *desc, tmv_op **out)
{
    return validate_depth_space(space_to_depth(desc), out);
}

tmv_status tmv_validate_depth_to_space(const tmv_depth_to_space_desc *desc, tmv_op **out)
{
    return validate_depth_space(depth_to_space(desc), out);
}

tmv_status tmv_infer_space_to_depth(const tmv_space_to_depth_desc *desc, uint32_t *dim_count,
                                    uint32_t *sizes)
{
    return infer_depth_space(space_to_depth(desc), dim_count, sizes);
}

tmv_status tmv_infer_depth_to_space(const tmv_depth_to_space_desc *desc, uint32_t *dim_count,
                                    uint32_t *sizes)
{
    return infer_depth_space(depth_to_space(desc), dim_count, sizes);
}
