/* error.h - the thread-local last-error message and the helper that sets it. */
#ifndef TMV_ERROR_H
#define TMV_ERROR_H

#include "tensormove.h"

/* Formats the message for tmv_last_error() (printf-style) and returns status,
 * so a validator can write `return tmv_fail(TMV_ERR_..., "join: ...", ...);`. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
tmv_status tmv_fail(tmv_status status, const char *fmt, ...);

#endif
