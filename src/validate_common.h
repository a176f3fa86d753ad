/* validate_common.h - the checks every operator's rules are built from: each sets the message and returns a status. */
#ifndef TMV_VALIDATE_COMMON_H
#define TMV_VALIDATE_COMMON_H

#include <stdint.h>

#include "tensor.h"

/* Long enough for "outputs[4294967295]", the longest tensor name. */
#define TMV_NAME_LEN 48
/* "{4294967295,...}" for TMV_MAX_DIMS sizes. */
#define TMV_SHAPE_LEN (TMV_MAX_DIMS * 11 + 3)

/* a*b, or UINT64_MAX when it does not fit; no uint32 size can equal that, so
 * an overflowed expected size always reads as a mismatch. */
uint64_t tmv_mul_saturating(uint64_t a, uint64_t b);
/* "inputs[3]" into buf (TMV_NAME_LEN bytes). */
void tmv_format_indexed_name(char *buf, const char *array, uint32_t i);
/* "{1,2,3}" into buf (TMV_SHAPE_LEN bytes). */
void tmv_format_shape(char *buf, const uint32_t *sizes, uint32_t count);

/* Copies and checks one description; messages read "<op>: <name>.dtype ...". */
tmv_status tmv_init_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op, const char *name);
/* As tmv_init_tensor, and the tensor is written, so it must not alias itself. */
tmv_status tmv_init_output_tensor(tmv_tensor *t, const tmv_tensor_desc *desc, const char *op,
                                  const char *name);

tmv_status tmv_expect_same_dtype(const char *op, const char *name, const tmv_tensor *t,
                                 const char *ref_name, const tmv_tensor *ref);
tmv_status tmv_expect_same_dim_count(const char *op, const char *name, const tmv_tensor *t,
                                     const char *ref_name, const tmv_tensor *ref);
tmv_status tmv_expect_dim_count(const char *op, const char *name, const tmv_tensor *t, uint32_t want);

/* JOIN's input_count / SPLIT's output_count in 1..TMV_MAX_PIECES and its
 * array not NULL: checked before anything sized by the count is allocated. */
tmv_status tmv_expect_pieces(const char *op, const char *count_member, uint32_t count,
                             const char *array_member, const void *array);
tmv_status tmv_expect_axis_in_range(const char *op, uint32_t axis, const char *name, const tmv_tensor *t);
/* One JOIN input / SPLIT output against the joined tensor: dtype, dim_count,
 * every size but the axis. */
tmv_status tmv_expect_slab_matches(const char *op, const char *name, const tmv_tensor *slab,
                                   const char *whole_name, const tmv_tensor *whole, uint32_t axis);
/* The pieces' sizes along the axis, summed by the caller, equal whole's. */
tmv_status tmv_expect_axis_total(const char *op, const char *slabs_name, uint64_t sum,
                                 const char *whole_name, const tmv_tensor *whole, uint32_t axis);

#endif
