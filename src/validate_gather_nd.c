/* validate_gather_nd.c - GATHER_ND's rules (docs/SPEC.md 6): r, q, b and k, placeholder and batch dimensions, the output shape. */
#include "error.h"
#include "validate.h"
#include "validate_common.h"

static tmv_status expect_index_dtype(const tmv_tensor *indices)
{
    const tmv_dtype t = indices->dtype;
    if (t == TMV_DTYPE_INT32 || t == TMV_DTYPE_INT64 || t == TMV_DTYPE_UINT32 || t == TMV_DTYPE_UINT64)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                    "gather_nd: indices.dtype is %s, not an index type (INT32, INT64, UINT32 "
                    "or UINT64)", tmv_dtype_name(t));
}

static tmv_status check_gather_nd_tensors(const tmv_gather_nd_desc *desc, tmv_op *op)
{
    static const char *const name = "gather_nd";
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *indices = &op->inputs[1], *output = &op->outputs[0];
    if ((status = tmv_init_tensor(input, desc->input, name, "input")) != TMV_OK ||
        (status = tmv_init_tensor(indices, desc->indices, name, "indices")) != TMV_OK ||
        (status = tmv_init_output_tensor(output, desc->output, name, "output")) != TMV_OK ||
        (status = expect_index_dtype(indices)) != TMV_OK ||
        (status = tmv_expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = tmv_expect_same_dim_count(name, "indices", indices, "input", input)) != TMV_OK ||
        (status = tmv_expect_same_dim_count(name, "output", output, "input", input)) != TMV_OK)
        return status;
    return TMV_OK;
}

/* Inference's share of check_gather_nd_tensors: the input and the indices. */
static tmv_status check_gather_nd_inputs(const tmv_gather_nd_desc *desc, tmv_tensor *input,
                                         tmv_tensor *indices)
{
    static const char *const name = "gather_nd";
    tmv_status status;
    if ((status = tmv_init_tensor(input, desc->input, name, "input")) != TMV_OK ||
        (status = tmv_init_tensor(indices, desc->indices, name, "indices")) != TMV_OK ||
        (status = expect_index_dtype(indices)) != TMV_OK)
        return status;
    return tmv_expect_same_dim_count(name, "indices", indices, "input", input);
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

/* The output shape: indices' meaningful dims but the last, then input's
 * meaningful dims after the first b + k, right-aligned with leading 1s in
 * the tensors' n dimensions -- if they fit. */
static tmv_status gather_nd_output_shape(const tmv_gather_nd_desc *desc, const tmv_tensor *input,
                                         const tmv_tensor *indices, uint32_t *want)
{
    const uint32_t n = input->dim_count, r = desc->input_dim_count, q = desc->indices_dim_count,
                   b = desc->batch_dim_count, k = indices->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - b - k); /* each term < n after check_gather_nd_counts */
    if (m > n)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "gather_nd: the output needs (indices_dim_count %u - 1) + (input_dim_count "
                        "%u - batch_dim_count %u - k %u) = %u dimensions but dim_count is %u",
                        q, r, b, k, m, n);
    uint32_t d = 0;
    for (; d < n - m; d++)
        want[d] = 1;
    for (uint32_t i = 0; i + 1 < q; i++)
        want[d++] = indices->sizes[n - q + i];
    for (uint32_t i = b + k; i < r; i++)
        want[d++] = input->sizes[n - r + i];
    return TMV_OK;
}

static tmv_status check_gather_nd_output(const tmv_gather_nd_desc *desc, const tmv_tensor *input,
                                         const tmv_tensor *indices, const tmv_tensor *output)
{
    const uint32_t n = input->dim_count;
    uint32_t want[TMV_MAX_DIMS];
    tmv_status status = gather_nd_output_shape(desc, input, indices, want);
    if (status != TMV_OK)
        return status;
    for (uint32_t d = 0; d < n; d++) {
        if (output->sizes[d] != want[d]) {
            char shape[TMV_SHAPE_LEN];
            tmv_format_shape(shape, want, n);
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

tmv_status tmv_validate_gather_nd(const tmv_gather_nd_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_GATHER_ND, 2, 1);
    return tmv_validate_finish(op, op == NULL ? TMV_ERR_OUT_OF_MEMORY : check_gather_nd(desc, op), out);
}

tmv_status tmv_infer_gather_nd(const tmv_gather_nd_desc *desc, uint32_t *dim_count, uint32_t *sizes)
{
    tmv_tensor input, indices;
    tmv_status status;
    if ((status = check_gather_nd_inputs(desc, &input, &indices)) != TMV_OK ||
        (status = check_gather_nd_counts(desc, &input, &indices)) != TMV_OK ||
        (status = gather_nd_output_shape(desc, &input, &indices, sizes)) != TMV_OK)
        return status;
    *dim_count = input.dim_count;
    return TMV_OK;
}
