/* dispatch.c - kernel-set selection: detect the CPU and read the environment once, publish the cap atomically. */
#include "dispatch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cost_tables.h"
#include "cpu.h"
#include "error.h"
#include "kernel_sets.h"

/* Written once inside init, before pthread_once returns to any caller (which
 * orders them before every read; pthread_once, unlike glibc's call_once, is
 * also understood by ThreadSanitizer). */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static uint32_t cpu_features;
static tmv_isa best;
static tmv_tuning tuning;
static tmv_status tuning_status;
static char tuning_error[512];
static char env_value[64];             /* an invalid TENSORMOVE_ISA */
static _Atomic int current_isa;        /* a tmv_isa, or -1 while TENSORMOVE_ISA is invalid */

static bool has(const tmv_kernel_set *set)
{
    return set != NULL && tmv_kernel_set_runs_on(set, cpu_features);
}

/* The highest set this CPU has that is not emulated. */
static tmv_isa detect_best(void)
{
    const tmv_kernel_set *chosen = tmv_kernel_set_of(TMV_ISA_SCALAR);
    for (unsigned i = 0; i < tmv_kernel_set_count; i++) {
        const tmv_kernel_set *set = &tmv_kernel_sets[i];
        if (has(set) && !set->emulated && set->rank > chosen->rank)
            chosen = set;
    }
    return chosen->isa;
}

/* The set TENSORMOVE_ISA names, or -1 for a name that names none this CPU has. */
static int parse_env(const char *value)
{
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (has(&tmv_kernel_sets[i]) && strcmp(value, tmv_kernel_sets[i].name) == 0)
            return (int)tmv_kernel_sets[i].isa;
    return -1;
}

static void init(void)
{
    cpu_features = tmv_cpu_detect_features();
    best = detect_best();
    uint64_t caches[TMV_CPU_CACHE_LEVELS];
    tmv_cpu_caches(caches);
    tuning_status = tmv_tuning_resolve(&tuning, caches, tmv_cost_table_for(tmv_cpu_identify()));
    if (tuning_status != TMV_OK)
        strncpy(tuning_error, tmv_last_error(), sizeof tuning_error - 1);
    int isa = (int)best;
    const char *env = getenv("TENSORMOVE_ISA");
    if (env != NULL && env[0] != '\0') {
        isa = parse_env(env);
        if (isa < 0)
            strncpy(env_value, env, sizeof env_value - 1);
    }
    atomic_store(&current_isa, isa);
}

static void ensure_init(void)
{
    pthread_once(&init_once, init);
}

tmv_status tmv_dispatch_status(void)
{
    ensure_init();
    if (atomic_load(&current_isa) < 0)
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA,
                        "TENSORMOVE_ISA is \"%s\", which names no kernel set this CPU has "
                        "(it has \"%s\" and the sets below it); unset it or call tmv_set_isa",
                        env_value, tmv_isa_name(best));
    if (tuning_status != TMV_OK)
        return tmv_fail(tuning_status, "%s", tuning_error);
    return TMV_OK;
}

const char *tmv_cost_table_name(void)
{
    ensure_init();
    return tuning.cost_table->name;   /* never NULL: dispatch resolves it with the CPU's table */
}

const tmv_tuning *tmv_dispatch_tuning(void)
{
    ensure_init();
    return &tuning;
}

tmv_isa tmv_get_isa(void)
{
    ensure_init();
    int isa = atomic_load(&current_isa);
    return isa < 0 ? best : (tmv_isa)isa;
}

tmv_status tmv_set_isa(tmv_isa isa)
{
    ensure_init();
    if (!has(tmv_kernel_set_of(isa)))
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA,
                        "tmv_set_isa: %d (%s) is no kernel set this CPU has (it has \"%s\" and "
                        "the sets below it)", (int)isa, tmv_isa_name(isa) ? tmv_isa_name(isa) : "no name",
                        tmv_isa_name(best));
    atomic_store(&current_isa, (int)isa);
    return TMV_OK;
}

uint32_t tmv_isa_list(tmv_isa *out, uint32_t capacity)
{
    ensure_init();
    uint32_t n = 0;
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (has(&tmv_kernel_sets[i])) {
            if (out != NULL && n < capacity)
                out[n] = tmv_kernel_sets[i].isa;
            n++;
        }
    return n;
}
