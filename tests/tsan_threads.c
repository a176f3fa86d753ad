/* tsan_threads.c - the concurrency scenarios as a plain program, for the ThreadSanitizer build
 * (Criterion's runner cannot start under TSan). Seed: TENSORMOVE_TEST_SEED or the clock. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensormove.h"
#include "thread_scenarios.h"

extern char **environ;

static atomic_int init_holds; /* reads of TENSORMOVE_ISA, which the library does in its one-time init only */

/* This program's getenv, in place of libc's for the library too: the first
 * read of TENSORMOVE_ISA (inside the library's initialization) sleeps 100 ms,
 * so the other racing threads, released by the same barrier, call in while
 * the initialization runs -- the case a once-init must make safe, made
 * certain instead of left to scheduling. */
char *getenv(const char *name)
{
    if (strcmp(name, "TENSORMOVE_ISA") == 0 && atomic_fetch_add(&init_holds, 1) == 0)
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    const size_t len = strlen(name);
    for (char **e = environ; *e != NULL; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

int main(void)
{
    char msg[1024];
    unsigned passed = 0, failed = 0;
    /* first, before any other tensormove call: the threads race the one-time initialization */
    if (!ts_racing_first_create(msg, sizeof msg))
        failed++, printf("FAIL racing_first_create: %s\n", msg);
    else if (atomic_load(&init_holds) != 1)
        failed++, printf("FAIL racing_first_create: the initialization read TENSORMOVE_ISA %d times, not once "
                         "inside the race\n", atomic_load(&init_holds));
    else
        passed++;

    const char *env = getenv("TENSORMOVE_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    printf("seed 0x%016" PRIx64 " (TENSORMOVE_TEST_SEED repeats it)\n", seed);
    tmv_isa sets[32];
    const uint32_t set_count = tmv_isa_list(sets, 32);
    for (uint32_t i = 0; i < set_count && i < 32; i++) {
        if (tmv_set_isa(sets[i]) != TMV_OK) {
            failed++, printf("FAIL tmv_set_isa(%s), which tmv_isa_list lists\n", tmv_isa_name(sets[i]));
            continue;
        }
        if (ts_shared_execution(seed, NULL, msg, sizeof msg))
            passed++;
        else
            failed++, printf("FAIL one_operator_many_threads on %s: %s\n", tmv_isa_name(sets[i]), msg);
        /* ctest sets TENSORMOVE_TASK_MIN_BYTES=64: these small cases split into tasks */
        if (ts_shared_execution(seed, &ts_spawning_pool, msg, sizeof msg))
            passed++;
        else
            failed++, printf("FAIL one_operator_many_threads_each_parallel on %s: %s\n", tmv_isa_name(sets[i]),
                             msg);
    }
    /* on the last set listed: operators kept, found and evicted while others run them */
    if (ts_one_shot_churn(seed, msg, sizeof msg))
        passed++;
    else
        failed++, printf("FAIL one_shot_churn: %s\n", msg);
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
