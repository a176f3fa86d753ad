/* fuzz_spec.h - an independent reading of docs/SPEC.md: which descriptions tmv_op_create
 * must accept, and the byte extent of a tensor. Shares no code with src/ (validate.c,
 * tensor.c), so that the fuzzer can hold the library to the document. */
#ifndef TMV_FUZZ_SPEC_H
#define TMV_FUZZ_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensormove.h"

/* True if SPEC.md requires tmv_op_create(desc, &op) to succeed (given
 * memory), false if it requires TMV_ERR_INVALID_ARGUMENT; then `why` gets the
 * first rule found broken, naming the operator, the member and the section.
 * Reads only what the description's own counts say exists. */
bool fz_spec_accepts(const tmv_op_desc *desc, char *why, size_t why_len);

/* Bytes per element (SPEC 1.2), 0 for a value that names no data type. */
uint32_t fz_spec_dtype_size(uint32_t dtype);

/* The byte extent of a tensor of an accepted description (SPEC 1.7): 0 if it
 * has no elements. */
uint64_t fz_spec_extent(const tmv_tensor_desc *t);

/* True if the tensor has no elements (some size 0, SPEC 1.6). */
bool fz_spec_empty(const tmv_tensor_desc *t);

/* The element stride of dimension d as SPEC 1.3 addresses it: packed strides
 * when strides is NULL, and 0 for a dimension of size 1. */
uint64_t fz_spec_stride(const tmv_tensor_desc *t, uint32_t d);

/* "join", "split", ... (the names the library's messages use); NULL for a
 * value that names no operator. */
const char *fz_spec_op_name(uint32_t type);

#endif
