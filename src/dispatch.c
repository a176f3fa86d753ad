/* dispatch.c - kernel-set selection: read TENSORMOVE_ISA once, publish the cap atomically. */
#include "dispatch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "error.h"

/* The best set this CPU has. Only the portable set exists so far. */
static tmv_isa best_isa(void)
{
    return TMV_ISA_SCALAR;
}

static once_flag init_once = ONCE_FLAG_INIT;
static _Atomic int current_isa;        /* a tmv_isa, or -1 while TENSORMOVE_ISA is invalid */
static char env_error[256];            /* written once inside init, read-only after */

static void init(void)
{
    tmv_isa isa = best_isa();
    const char *env = getenv("TENSORMOVE_ISA");
    if (env != NULL && env[0] != '\0') {
        int found = -1;
        for (int i = 0; i <= (int)best_isa(); i++)
            if (tmv_isa_name((tmv_isa)i) != NULL && strcmp(env, tmv_isa_name((tmv_isa)i)) == 0)
                found = i;
        if (found < 0) {
            strncpy(env_error, env, sizeof env_error - 1);
            atomic_store(&current_isa, -1);
            return;
        }
        isa = (tmv_isa)found;
    }
    atomic_store(&current_isa, (int)isa);
}

tmv_status tmv_dispatch_status(void)
{
    call_once(&init_once, init);
    if (atomic_load(&current_isa) < 0)
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA,
                        "TENSORMOVE_ISA is \"%s\", which names no kernel set this CPU has "
                        "(this CPU has up to \"%s\"); unset it or call tmv_set_isa",
                        env_error, tmv_isa_name(best_isa()));
    return TMV_OK;
}

const char *tmv_isa_name(tmv_isa isa)
{
    switch (isa) {
    case TMV_ISA_SCALAR: return "scalar";
    }
    return NULL;
}

tmv_isa tmv_get_isa(void)
{
    call_once(&init_once, init);
    int isa = atomic_load(&current_isa);
    return isa < 0 ? best_isa() : (tmv_isa)isa;
}

tmv_status tmv_set_isa(tmv_isa isa)
{
    call_once(&init_once, init);
    if (tmv_isa_name(isa) == NULL || (int)isa > (int)best_isa())
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA, "tmv_set_isa: %d names no kernel set this CPU has "
                        "(this CPU has up to \"%s\")", (int)isa, tmv_isa_name(best_isa()));
    atomic_store(&current_isa, (int)isa);
    return TMV_OK;
}
