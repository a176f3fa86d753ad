/* validate_common.c - the checks every operator's rules are built from. */
#include "validate_common.h"

#include <stdio.h>

#include "error.h"

uint64_t tmv_mul_saturating(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

void tmv_format_indexed_name(char *buf, const char *array, uint32_t i)
{
    snprintf(buf, TMV_NAME_LEN, "%s[%u]", array, i);
}

void tmv_format_shape(char *buf, const uint32_t *sizes, uint32_t count)
{
    size_t used = 0;
    buf[used++] = '{';
    for (uint32_t d = 0; d < count; d++)
        used += (size_t)snprintf(buf + used, TMV_SHAPE_LEN - used, d ? ",%u" : "%u", sizes[d]);
    snprintf(buf + used, TMV_SHAPE_LEN - used, "}");
}

tmv_status tmv_init_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op, const char *name)
{
    char what[TMV_NAME_LEN + 32];
    snprintf(what, sizeof what, "%s: %s", op, name);
    return tmv_tensor_init(t, desc, what);
}

tmv_status tmv_init_output_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op,
                                  const char *name)
{
    tmv_status status = tmv_init_tensor(t, desc, op, name);
    if (status != TMV_OK)
        return status;
    char what[TMV_NAME_LEN + 32];
    snprintf(what, sizeof what, "%s: %s", op, name);
    return tmv_tensor_check_injective(t, what);
}

tmv_status tmv_expect_same_dtype(const char *op, const char *name, const tmv_tensor *t,
                                 const char *ref_name, const tmv_tensor *ref)
{
    if (t->dtype == ref->dtype)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dtype is %s but %s.dtype is %s", op, name,
                    tmv_dtype_name(t->dtype), ref_name, tmv_dtype_name(ref->dtype));
}

tmv_status tmv_expect_same_dim_count(const char *op, const char *name, const tmv_tensor *t,
                                     const char *ref_name, const tmv_tensor *ref)
{
    if (t->dim_count == ref->dim_count)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dim_count is %u but %s.dim_count is %u", op,
                    name, t->dim_count, ref_name, ref->dim_count);
}

tmv_status tmv_expect_dim_count(const char *op, const char *name, const tmv_tensor *t, uint32_t want)
{
    if (t->dim_count == want)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s.dim_count is %u but must be %u", op, name,
                    t->dim_count, want);
}

tmv_status tmv_expect_pieces(const char *op, const char *count_member, uint32_t count,
                             const char *array_member, const void *array)
{
    if (count == 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s is 0 but must be > 0", op, count_member);
    if (count > TMV_MAX_PIECES)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s is %u but must be at most TMV_MAX_PIECES (%u)", op,
                        count_member, count, TMV_MAX_PIECES);
    if (array == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: %s is NULL but %s is %u", op, array_member,
                        count_member, count);
    return TMV_OK;
}

tmv_status tmv_expect_axis_in_range(const char *op, uint32_t axis, const char *name, const tmv_tensor *t)
{
    if (axis < t->dim_count)
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: axis is %u but must be less than %s.dim_count %u",
                    op, axis, name, t->dim_count);
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

tmv_status tmv_expect_slab_matches(const char *op, const char *name, const tmv_tensor *slab,
                                   const char *whole_name, const tmv_tensor *whole, uint32_t axis)
{
    tmv_status status = tmv_expect_same_dtype(op, name, slab, whole_name, whole);
    if (status == TMV_OK)
        status = tmv_expect_same_dim_count(op, name, slab, whole_name, whole);
    if (status == TMV_OK)
        status = expect_same_sizes_except_axis(op, name, slab, whole_name, whole, axis);
    return status;
}

tmv_status tmv_expect_axis_total(const char *op, const char *slabs_name, uint64_t sum,
                                 const char *whole_name, const tmv_tensor *whole, uint32_t axis)
{
    if (sum == whole->sizes[axis])
        return TMV_OK;
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                    "%s: %s[*].sizes[%u] (axis) add up to %llu but %s.sizes[%u] is %u", op,
                    slabs_name, axis, (unsigned long long)sum, whole_name, axis, whole->sizes[axis]);
}
