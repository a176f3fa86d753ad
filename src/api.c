/* api.c - create / execute / destroy: argument and buffer checks around the planned kernels. */
#include <stdlib.h>

#include "dispatch.h"
#include "error.h"
#include "op.h"
#include "op_cache.h"

tmv_status tmv_op_create(const tmv_op_desc *desc, tmv_op **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: out is NULL");
    return tmv_op_create_for(desc, tmv_get_isa(), out);
}

tmv_status tmv_op_create_for(const tmv_op_desc *desc, tmv_isa isa, tmv_op **out)
{
    *out = NULL;
    tmv_status status = tmv_dispatch_status();
    if (status != TMV_OK)
        return status;
    tmv_op *op;
    status = tmv_validate(desc, &op);
    if (status != TMV_OK)
        return status;
    status = tmv_plan(op, isa, tmv_dispatch_tuning());
    if (status != TMV_OK) {
        tmv_op_destroy(op);
        return status;
    }
    *out = op;
    return TMV_OK;
}

void tmv_op_destroy(tmv_op *op)
{
    if (op == NULL)
        return;
    for (uint32_t i = 0; i < op->step_count; i++)
        free(op->steps[i].state);
    free(op->steps);
    free(op->pieces);
    free(op->gather);
    free(op);
}

const char *tmv_op_describe(const tmv_op *op)
{
    return op == NULL ? "" : op->description;
}

tmv_status tmv_op_execute(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    if (op == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_execute: op is NULL");
    tmv_status status = tmv_check_bindings(op, inputs, outputs);
    if (status != TMV_OK)
        return status;
    return tmv_plan_execute(op, inputs, outputs);
}

tmv_status tmv_execute(const tmv_op_desc *desc, const void *const *inputs, void *const *outputs)
{
    tmv_op *op;
    tmv_op_cache_hold *hold;
    tmv_status status = tmv_op_cache_acquire(desc, &op, &hold);
    if (status != TMV_OK)
        return status;
    status = tmv_op_execute(op, inputs, outputs);
    if (hold != NULL)
        tmv_op_cache_release(hold);
    else
        tmv_op_destroy(op);
    return status;
}

#define STRINGIFY(x) #x
#define VERSION_STRING(major, minor, patch) STRINGIFY(major) "." STRINGIFY(minor) "." STRINGIFY(patch)

const char *tmv_version(void)
{
    return VERSION_STRING(TMV_VERSION_MAJOR, TMV_VERSION_MINOR, TMV_VERSION_PATCH);
}

uint32_t tmv_version_number(void)
{
    return TMV_VERSION;
}
