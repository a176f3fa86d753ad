/* thread_pool_unavailable.c - tmv_thread_pool_create in a build without pthreadpool (TENSORMOVE_THREAD_POOL=OFF). */
#include "error.h"
#include "tensormove.h"

tmv_status tmv_thread_pool_create(uint32_t threads, tmv_parallel **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_thread_pool_create: out is NULL");
    *out = NULL;
    return tmv_fail(TMV_ERR_UNSUPPORTED,
                    "tmv_thread_pool_create: this tensormove was built without pthreadpool "
                    "(TENSORMOVE_THREAD_POOL=OFF), so it has no pool of %u threads to offer; "
                    "pass your own pool to tmv_op_execute_parallel",
                    threads);
}

void tmv_thread_pool_destroy(tmv_parallel *pool)
{
    (void)pool; /* no pool was ever created */
}
