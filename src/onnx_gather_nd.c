/* onnx_gather_nd.c - tmv_gather_nd_desc_from_onnx: a GATHER_ND description from ONNX GatherND's ranks, shapes padded to one dimension count (docs/SPEC.md 6.8). */
#include <string.h>

#include "error.h"
#include "validate.h"
#include "validate_common.h"

static const char *const name = "gather_nd_desc_from_onnx";

/* ONNX's rules on batch_dims and k, checked before the padding depends on
 * them: in padded terms the messages would name dimensions the caller never
 * wrote. */
static tmv_status check_onnx_ranks(const tmv_tensor *data, const tmv_tensor *indices, uint32_t b)
{
    const uint32_t r = data->dim_count, q = indices->dim_count, k = indices->sizes[q - 1];
    if (b >= (r < q ? r : q))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: batch_dims is %u but must be less than data's rank %u and indices' "
                        "rank %u", name, b, r, q);
    if (k < 1 || k > r - b)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: indices.sizes[%u] (k, the index tuple length) is %u but must be 1 to "
                        "%u (data's rank %u - batch_dims %u)", name, q - 1, k, r - b, r, b);
    for (uint32_t j = 0; j < b; j++)
        if (data->sizes[j] != indices->sizes[j])
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: batch dimension %u: data.sizes[%u] is %u but indices.sizes[%u] "
                            "is %u", name, j, j, data->sizes[j], j, indices->sizes[j]);
    const uint32_t m = (q - 1) + (r - b - k);
    if (m > TMV_MAX_DIMS)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: the output's rank (q %u - 1) + (r %u - batch_dims %u - k %u) is %u, "
                        "more than TMV_MAX_DIMS (%u)", name, q, r, b, k, m, TMV_MAX_DIMS);
    return TMV_OK;
}

/* desc's sizes (and strides, if any) behind n - dim_count leading 1s (and
 * strides 0: a size-1 dimension's stride is never used). */
static tmv_tensor_desc pad_left(const tmv_tensor_desc *desc, uint32_t n, uint32_t *sizes,
                                uint32_t *strides)
{
    const uint32_t pad = n - desc->dim_count;
    for (uint32_t d = 0; d < pad; d++)
        sizes[d] = 1, strides[d] = 0;
    memcpy(sizes + pad, desc->sizes, desc->dim_count * sizeof *sizes);
    if (desc->strides != NULL)
        memcpy(strides + pad, desc->strides, desc->dim_count * sizeof *strides);
    return (tmv_tensor_desc){desc->dtype, n, sizes, desc->strides != NULL ? strides : NULL};
}

tmv_status tmv_gather_nd_desc_from_onnx(const tmv_tensor_desc *data, const tmv_tensor_desc *indices,
                                        uint32_t batch_dims, tmv_gather_nd_onnx *out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: out is NULL", name);
    memset(out, 0, sizeof *out);
    tmv_tensor d, i;
    tmv_status status;
    if ((status = tmv_init_tensor(&d, data, name, "data")) != TMV_OK ||
        (status = tmv_init_tensor(&i, indices, name, "indices")) != TMV_OK ||
        (status = check_onnx_ranks(&d, &i, batch_dims)) != TMV_OK)
        return status;

    const uint32_t r = d.dim_count, q = i.dim_count, k = i.sizes[q - 1];
    const uint32_t m = (q - 1) + (r - batch_dims - k);
    uint32_t n = r > q ? r : q;
    if (m > n)
        n = m;
    out->output_rank = m;
    out->input = pad_left(data, n, out->input_sizes, out->input_strides);
    out->indices = pad_left(indices, n, out->indices_sizes, out->indices_strides);
    out->output = (tmv_tensor_desc){data->dtype, n, out->output_sizes, NULL};
    out->desc = (tmv_gather_nd_desc){&out->input, &out->indices, &out->output, r, q, batch_dims};
    /* The rest of GATHER_ND's rules, and O right-aligned in n dimensions. */
    uint32_t dim_count;
    if ((status = tmv_infer_gather_nd(&out->desc, &dim_count, out->output_sizes)) != TMV_OK)
        memset(out, 0, sizeof *out);
    return status;
}
