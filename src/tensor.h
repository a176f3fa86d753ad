/* tensor.h - a validated, self-contained copy of a tensor description. */
#ifndef TMV_TENSOR_H
#define TMV_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "tensormove.h"

typedef struct tmv_tensor {
    tmv_dtype dtype;
    uint32_t  elem_size;                 /* bytes: 1, 2, 4 or 8 */
    uint32_t  dim_count;                 /* 1..TMV_MAX_DIMS */
    uint32_t  sizes[TMV_MAX_DIMS];
    uint64_t  strides[TMV_MAX_DIMS];     /* elements; explicit (packed ones filled in);
                                            0 where sizes[d] == 1, which never matters */
    bool      empty;                     /* some size is 0: no elements */
    uint64_t  extent_bytes;              /* lowest to just past highest addressed byte; 0 if empty */
} tmv_tensor;

/* tmv_dtype_size (bytes per element) is public: tensormove.h. */
/* "FLOAT32", ... or "unknown". */
const char *tmv_dtype_name(tmv_dtype dtype);

/* Copies and checks one description: desc not NULL, a known dtype, dim_count
 * 1..8, sizes not NULL, byte extent fits size_t. `what` names it in messages
 * ("join: inputs[2]"). Returns TMV_OK or TMV_ERR_INVALID_ARGUMENT. */
tmv_status tmv_tensor_init(tmv_tensor *t, const tmv_tensor_desc *desc, const char *what);

/* TMV_ERR_INVALID_ARGUMENT (naming `what`) if two coordinates of t share an
 * element: see the rule in tensormove.h. */
tmv_status tmv_tensor_check_injective(const tmv_tensor *t, const char *what);

#endif
