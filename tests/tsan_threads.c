/* tsan_threads.c - the concurrency scenarios as a plain program, for the ThreadSanitizer build
 * (Criterion's runner cannot start under TSan). Seed: TENSORMOVE_TEST_SEED or the clock. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tensormove.h"
#include "thread_scenarios.h"

int main(void)
{
    char msg[1024];
    unsigned passed = 0, failed = 0;
    /* first, before any other tensormove call */
    if (ts_racing_first_create(msg, sizeof msg))
        passed++;
    else
        failed++, printf("FAIL racing_first_create: %s\n", msg);

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
        if (ts_shared_execution(seed, msg, sizeof msg))
            passed++;
        else
            failed++, printf("FAIL one_operator_many_threads on %s: %s\n", tmv_isa_name(sets[i]), msg);
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
