/* gather_check.h - checking a GATHER_ND's index tuples before anything is written. */
#ifndef TMV_GATHER_CHECK_H
#define TMV_GATHER_CHECK_H

#include "kernels.h"

/* TMV_OK if every index tuple is in range, else TMV_ERR_INDEX_OUT_OF_RANGE
 * naming the first bad one. Any gather kernel may use it as its check pass,
 * or to name the bad index its own faster check found. */
tmv_status tmv_gather_check(const tmv_gather_shape *s, const uint8_t *indices);

/* The same check, quietly: true if every tuple is in range (no error set;
 * a parallel execute checks its tasks' tuples with it). */
bool tmv_gather_indices_in_range(const tmv_gather_shape *s, const uint8_t *indices);

#endif
