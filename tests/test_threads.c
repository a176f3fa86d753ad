/* test_threads.c - the concurrency scenarios (thread_scenarios.c) under Criterion, once per kernel set. */
#include <criterion/criterion.h>

#include "test_util.h"
#include "thread_scenarios.h"

static void shared_execution(tmv_isa isa, void *ctx)
{
    char msg[1024];
    cr_assert(ts_shared_execution(*(const uint64_t *)ctx, NULL, msg, sizeof msg), "kernel set %s: %s",
              tmv_isa_name(isa), msg);
}

static void shared_parallel_execution(tmv_isa isa, void *ctx)
{
    char msg[1024];
    cr_assert(ts_shared_execution(*(const uint64_t *)ctx, &ts_spawning_pool, msg, sizeof msg), "kernel set %s: %s",
              tmv_isa_name(isa), msg);
}

Test(threads, one_operator_many_threads)
{
    uint64_t seed = tu_seed("threads::one_operator_many_threads");
    tu_for_each_isa(shared_execution, &seed);
}

/* Each of the threads runs tmv_op_execute_parallel on one shared pool. */
Test(threads, one_operator_many_threads_each_parallel)
{
    uint64_t seed = tu_seed("threads::one_operator_many_threads_each_parallel");
    tu_for_each_isa(shared_parallel_execution, &seed);
}

/* Criterion runs each test in a fresh process, and nothing here calls
 * tensormove before the scenario's barrier opens, so its creates are the
 * first and race the one-time initialization. */
Test(threads, racing_first_create)
{
    char msg[1024];
    cr_assert(ts_racing_first_create(msg, sizeof msg), "%s", msg);
}
