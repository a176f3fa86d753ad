/* validate_join_split.c - JOIN's and SPLIT's rules (docs/SPEC.md 2, 3): pieces against the joined tensor. */
#include "error.h"
#include "validate.h"
#include "validate_common.h"

/* JOIN's inputs against its output, SPLIT's outputs against its input: the
 * axis in range, every other dim equal, the sizes along the axis adding up. */
static tmv_status check_slabs(const char *op, const char *slabs_name, const tmv_tensor *slabs,
                              uint32_t count, const char *whole_name, const tmv_tensor *whole,
                              uint32_t axis)
{
    char member[TMV_NAME_LEN];
    tmv_status status = tmv_expect_axis_in_range(op, axis, whole_name, whole);
    uint64_t sum = 0; /* at most (2^32-1)^2: cannot wrap */
    for (uint32_t i = 0; i < count && status == TMV_OK; i++) {
        tmv_format_indexed_name(member, slabs_name, i);
        status = tmv_expect_slab_matches(op, member, &slabs[i], whole_name, whole, axis);
        sum += slabs[i].sizes[axis];
    }
    if (status == TMV_OK)
        status = tmv_expect_axis_total(op, slabs_name, sum, whole_name, whole, axis);
    return status;
}

/* ---- JOIN ---------------------------------------------------------------- */

/* Every input as create checks it first, into inputs[] (or, for NULL, one scratch tensor). */
static tmv_status init_join_inputs(const tmv_join_desc *desc, tmv_tensor *inputs)
{
    char member[TMV_NAME_LEN];
    tmv_tensor scratch;
    tmv_status status = TMV_OK;
    for (uint32_t i = 0; i < desc->input_count && status == TMV_OK; i++) {
        tmv_format_indexed_name(member, "inputs", i);
        status = tmv_init_tensor(inputs != NULL ? &inputs[i] : &scratch, &desc->inputs[i], "join", member);
    }
    return status;
}

static tmv_status check_join(const tmv_join_desc *desc, tmv_op *op)
{
    tmv_status status = init_join_inputs(desc, op->inputs);
    tmv_tensor *output = &op->outputs[0];
    if (status == TMV_OK)
        status = tmv_init_output_tensor(output, desc->output, "join", "output");
    if (status != TMV_OK)
        return status;
    op->axis = desc->axis;
    return check_slabs("join", "inputs", op->inputs, desc->input_count, "output", output, desc->axis);
}

tmv_status tmv_validate_join(const tmv_join_desc *desc, tmv_op **out)
{
    tmv_status status = tmv_expect_pieces("join", "input_count", desc->input_count, "inputs", desc->inputs);
    if (status != TMV_OK)
        return status;
    tmv_op *op = tmv_op_alloc(TMV_OP_JOIN, desc->input_count, 1);
    return tmv_validate_finish(op, op == NULL ? TMV_ERR_OUT_OF_MEMORY : check_join(desc, op), out);
}

/* Create's checks with inputs[0] standing in for the output: every input as
 * create checks it, the axis in range of inputs[0], every input against
 * inputs[0], and the sizes along the axis summed. One tensor at a time, so
 * no allocation whatever input_count is. */
tmv_status tmv_infer_join(const tmv_join_desc *desc, uint32_t *dim_count, uint32_t *sizes)
{
    tmv_status status = tmv_expect_pieces("join", "input_count", desc->input_count, "inputs", desc->inputs);
    if (status == TMV_OK)
        status = init_join_inputs(desc, NULL);
    tmv_tensor first, input;
    if (status == TMV_OK)
        status = tmv_init_tensor(&first, &desc->inputs[0], "join", "inputs[0]");
    if (status == TMV_OK)
        status = tmv_expect_axis_in_range("join", desc->axis, "inputs[0]", &first);
    uint64_t sum = 0; /* at most (2^32-1)^2: cannot wrap */
    char member[TMV_NAME_LEN];
    for (uint32_t i = 0; i < desc->input_count && status == TMV_OK; i++) {
        tmv_format_indexed_name(member, "inputs", i);
        status = tmv_init_tensor(&input, &desc->inputs[i], "join", member);
        if (status == TMV_OK)
            status = tmv_expect_slab_matches("join", member, &input, "inputs[0]", &first, desc->axis);
        if (status == TMV_OK)
            sum += input.sizes[desc->axis];
    }
    if (status != TMV_OK)
        return status;
    if (sum > UINT32_MAX)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "join: inputs[*].sizes[%u] (axis) add up to %llu, more than a uint32_t size holds",
                        desc->axis, (unsigned long long)sum);
    *dim_count = first.dim_count;
    for (uint32_t d = 0; d < first.dim_count; d++)
        sizes[d] = d == desc->axis ? (uint32_t)sum : first.sizes[d];
    return TMV_OK;
}

/* ---- SPLIT --------------------------------------------------------------- */

static tmv_status check_split(const tmv_split_desc *desc, tmv_op *op)
{
    char member[TMV_NAME_LEN];
    tmv_tensor *input = &op->inputs[0];
    tmv_status status = tmv_init_tensor(input, desc->input, "split", "input");
    for (uint32_t o = 0; o < desc->output_count && status == TMV_OK; o++) {
        tmv_format_indexed_name(member, "outputs", o);
        status = tmv_init_output_tensor(&op->outputs[o], &desc->outputs[o], "split", member);
    }
    if (status != TMV_OK)
        return status;
    op->axis = desc->axis;
    return check_slabs("split", "outputs", op->outputs, desc->output_count, "input", input, desc->axis);
}

tmv_status tmv_validate_split(const tmv_split_desc *desc, tmv_op **out)
{
    tmv_status status = tmv_expect_pieces("split", "output_count", desc->output_count, "outputs",
                                          desc->outputs);
    if (status != TMV_OK)
        return status;
    tmv_op *op = tmv_op_alloc(TMV_OP_SPLIT, 1, desc->output_count);
    return tmv_validate_finish(op, op == NULL ? TMV_ERR_OUT_OF_MEMORY : check_split(desc, op), out);
}

/* outputs[o]'s dim_count equals the input's and its sizes are there to read sizes[axis] from. */
static tmv_status expect_axis_size_readable(const tmv_tensor_desc *output, uint32_t o, const tmv_tensor *input)
{
    if (output->dim_count != input->dim_count)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "split: outputs[%u].dim_count is %u but input.dim_count is %u",
                        o, output->dim_count, input->dim_count);
    if (output->sizes == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "split: outputs[%u].sizes is NULL", o);
    return TMV_OK;
}

/* The outputs' sizes along the axis cannot be inferred: they are read
 * (sizes[axis], and dim_count to know it is there) and must add up as
 * create requires; nothing else of the outputs is read. */
tmv_status tmv_infer_split(const tmv_split_desc *desc, uint32_t output, uint32_t *dim_count,
                           uint32_t *sizes)
{
    tmv_status status = tmv_expect_pieces("split", "output_count", desc->output_count, "outputs",
                                          desc->outputs);
    tmv_tensor input;
    if (status == TMV_OK)
        status = tmv_init_tensor(&input, desc->input, "split", "input");
    if (status == TMV_OK && output >= desc->output_count)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "split: output is %u but output_count is %u", output,
                        desc->output_count);
    if (status == TMV_OK)
        status = tmv_expect_axis_in_range("split", desc->axis, "input", &input);
    uint64_t sum = 0; /* at most (2^32-1)^2: cannot wrap */
    for (uint32_t o = 0; o < desc->output_count && status == TMV_OK; o++) {
        status = expect_axis_size_readable(&desc->outputs[o], o, &input);
        if (status == TMV_OK)
            sum += desc->outputs[o].sizes[desc->axis];
    }
    if (status == TMV_OK)
        status = tmv_expect_axis_total("split", "outputs", sum, "input", &input, desc->axis);
    if (status != TMV_OK)
        return status;
    *dim_count = input.dim_count;
    for (uint32_t d = 0; d < input.dim_count; d++)
        sizes[d] = d == desc->axis ? desc->outputs[output].sizes[d] : input.sizes[d];
    return TMV_OK;
}
