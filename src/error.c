/* error.c - thread-local last-error message and status names. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

tmv_status tmv_fail(tmv_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

const char *tmv_last_error(void)
{
    return last_error;
}

const char *tmv_status_string(tmv_status s)
{
    switch (s) {
    case TMV_OK: return "TMV_OK";
    case TMV_ERR_INVALID_ARGUMENT: return "TMV_ERR_INVALID_ARGUMENT";
    case TMV_ERR_OVERLAP: return "TMV_ERR_OVERLAP";
    case TMV_ERR_INDEX_OUT_OF_RANGE: return "TMV_ERR_INDEX_OUT_OF_RANGE";
    case TMV_ERR_OUT_OF_MEMORY: return "TMV_ERR_OUT_OF_MEMORY";
    case TMV_ERR_UNSUPPORTED_ISA: return "TMV_ERR_UNSUPPORTED_ISA";
    case TMV_ERR_UNSUPPORTED: return "TMV_ERR_UNSUPPORTED";
    }
    return "unknown status";
}
