/* tensor.c - copying and checking tensor descriptions: types, ranks, strides, extents. */
#include "tensor.h"

#include "error.h"

uint32_t tmv_dtype_size(tmv_dtype dtype)
{
    switch (dtype) {
    case TMV_DTYPE_UINT8: case TMV_DTYPE_INT8: return 1;
    case TMV_DTYPE_FLOAT16: case TMV_DTYPE_UINT16: case TMV_DTYPE_INT16: return 2;
    case TMV_DTYPE_FLOAT32: case TMV_DTYPE_UINT32: case TMV_DTYPE_INT32: return 4;
    case TMV_DTYPE_FLOAT64: case TMV_DTYPE_UINT64: case TMV_DTYPE_INT64: return 8;
    }
    return 0;
}

const char *tmv_dtype_name(tmv_dtype dtype)
{
    switch (dtype) {
    case TMV_DTYPE_FLOAT32: return "FLOAT32";
    case TMV_DTYPE_FLOAT16: return "FLOAT16";
    case TMV_DTYPE_UINT32: return "UINT32";
    case TMV_DTYPE_UINT16: return "UINT16";
    case TMV_DTYPE_UINT8: return "UINT8";
    case TMV_DTYPE_INT32: return "INT32";
    case TMV_DTYPE_INT16: return "INT16";
    case TMV_DTYPE_INT8: return "INT8";
    case TMV_DTYPE_FLOAT64: return "FLOAT64";
    case TMV_DTYPE_UINT64: return "UINT64";
    case TMV_DTYPE_INT64: return "INT64";
    }
    return "unknown";
}

/* a*b and a+b into *r, false on 64-bit overflow. */
static bool mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *r = a * b;
    return true;
}

static bool add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (b > UINT64_MAX - a)
        return false;
    *r = a + b;
    return true;
}

/* Packed row-major strides; false if they overflow 64 bits (only an error
 * when the tensor has elements, which compute_extent then reports). */
static bool packed_strides(tmv_tensor *t)
{
    uint64_t stride = 1;
    bool ok = true;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        t->strides[d] = stride;
        if (!mul_u64(stride, t->sizes[d], &stride)) {
            ok = false;
            stride = UINT64_MAX;
        }
    }
    return ok;
}

/* Byte extent of a non-empty tensor; false if it overflows 64 bits or size_t. */
static bool compute_extent(const tmv_tensor *t, uint64_t *bytes)
{
    uint64_t last = 0; /* element offset of the highest addressed element */
    for (uint32_t d = 0; d < t->dim_count; d++) {
        uint64_t span;
        if (t->sizes[d] <= 1)
            continue;
        if (!mul_u64(t->sizes[d] - 1u, t->strides[d], &span) || !add_u64(last, span, &last))
            return false;
    }
    uint64_t count;
    if (!add_u64(last, 1, &count) || !mul_u64(count, t->elem_size, bytes))
        return false;
    return *bytes <= (uint64_t)SIZE_MAX;
}

tmv_status tmv_tensor_init(tmv_tensor *t, const tmv_tensor_desc *desc, const char *what)
{
    if (desc == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s is NULL", what);
    t->dtype = desc->dtype;
    t->elem_size = tmv_dtype_size(desc->dtype);
    if (t->elem_size == 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s.dtype is %d, which is no tmv_dtype",
                        what, (int)desc->dtype);
    if (desc->dim_count < 1 || desc->dim_count > TMV_MAX_DIMS)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s.dim_count is %u but must be 1 to %d",
                        what, desc->dim_count, TMV_MAX_DIMS);
    if (desc->sizes == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s.sizes is NULL", what);
    t->dim_count = desc->dim_count;
    t->empty = false;
    for (uint32_t d = 0; d < TMV_MAX_DIMS; d++) {
        t->sizes[d] = d < t->dim_count ? desc->sizes[d] : 1;
        t->strides[d] = 0;
        if (t->sizes[d] == 0)
            t->empty = true;
    }
    bool strides_fit = true;
    if (desc->strides != NULL) {
        for (uint32_t d = 0; d < t->dim_count; d++)
            t->strides[d] = t->sizes[d] == 1 ? 0 : desc->strides[d];
    } else {
        strides_fit = packed_strides(t);
        for (uint32_t d = 0; d < t->dim_count; d++)
            if (t->sizes[d] == 1)
                t->strides[d] = 0;
    }
    t->extent_bytes = 0;
    if (!t->empty && (!strides_fit || !compute_extent(t, &t->extent_bytes)))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: the byte extent of its sizes and strides overflows size_t", what);
    return TMV_OK;
}

tmv_status tmv_tensor_check_injective(const tmv_tensor *t, const char *what)
{
    if (t->empty)
        return TMV_OK;
    /* Dims of size > 1, insertion-sorted by stride (at most 8). */
    uint32_t order[TMV_MAX_DIMS], n = 0;
    for (uint32_t d = 0; d < t->dim_count; d++) {
        if (t->sizes[d] == 1)
            continue;
        uint32_t i = n++;
        while (i > 0 && t->strides[order[i - 1]] > t->strides[d]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = d;
    }
    uint64_t span = 1; /* elements covered by the dims placed so far */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = order[i];
        if (t->strides[d] < span)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s.strides[%u] is %llu, which makes two coordinates share an "
                            "element (it must be at least %llu, the span of the dimensions "
                            "with smaller strides)",
                            what, d, (unsigned long long)t->strides[d], (unsigned long long)span);
        span += (uint64_t)(t->sizes[d] - 1u) * t->strides[d]; /* bounded by the checked extent */
    }
    return TMV_OK;
}
