/* test_tunables.c - the default stream threshold, and TENSORMOVE_STREAM_THRESHOLD, TENSORMOVE_GATHER_PREFETCH, TENSORMOVE_TASK_MIN_BYTES, TENSORMOVE_COST_TABLE: accepted, or every create fails naming the variable. */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cost_tables.h"
#include "dispatch.h"
#include "tensormove.h"
#include "tuning.h"

/* ctest runs this file once per value (tests/CMakeLists.txt) and says in
 * TMV_TEST_EXPECT what the library must make of it: "ok", or the name of the
 * variable every create must name in its error. */
static const char *expect(void)
{
    const char *v = getenv("TMV_TEST_EXPECT");
    return v ? v : "ok";
}

static const uint32_t sizes[] = {2, 3};
static const tmv_tensor_desc tensor = {TMV_DTYPE_FLOAT32, 2, sizes, NULL};
static const tmv_join_desc join = {1, &tensor, &tensor, 0};
static const tmv_op_desc join_op = {TMV_OP_JOIN, &join, 0};

Test(tunables, a_bad_value_fails_every_create_naming_the_variable)
{
    tmv_op *op = NULL;
    const tmv_status st = tmv_op_create(&join_op, &op);
    if (strcmp(expect(), "ok") == 0) {
        cr_assert_eq(st, TMV_OK, "%s", tmv_last_error());
        tmv_op_destroy(op);
        return;
    }
    cr_assert_eq(st, TMV_ERR_INVALID_ARGUMENT, "create gave %s", tmv_status_string(st));
    cr_expect_null(op);
    cr_expect(strstr(tmv_last_error(), expect()) != NULL, "message: %s", tmv_last_error());
    const char *value = getenv(expect());
    cr_expect(value != NULL && strstr(tmv_last_error(), value) != NULL, "message: %s", tmv_last_error());
    /* the same on the next create: the error is not a one-off */
    cr_expect_eq(tmv_op_create(&join_op, &op), TMV_ERR_INVALID_ARGUMENT);
}

/* A valid value reaches the tuning record plans carry. */
Test(tunables, a_valid_value_is_used)
{
    if (strcmp(expect(), "ok") != 0)
        cr_skip_test("the values of this run are invalid");
    const char *threshold = getenv("TENSORMOVE_STREAM_THRESHOLD");
    const char *prefetch = getenv("TENSORMOVE_GATHER_PREFETCH");
    if (threshold != NULL)
        cr_expect_eq(tmv_dispatch_tuning()->stream_threshold, strtoull(threshold, NULL, 0));
    if (prefetch != NULL)
        cr_expect_eq(tmv_dispatch_tuning()->gather_prefetch, strtoull(prefetch, NULL, 0));
    cr_expect_gt(tmv_dispatch_tuning()->stream_threshold, 0);
    /* the table named, else the one fitted for this CPU's family */
    const char *table = getenv("TENSORMOVE_COST_TABLE");
    const tmv_cost_table *expected = table != NULL ? tmv_cost_table_named(table) : tmv_cost_table_for(tmv_cpu_identify());
    cr_expect_not_null(expected);
    cr_expect_eq(tmv_dispatch_tuning()->cost_table, expected, "priced by %s, expected %s",
                 tmv_dispatch_tuning()->cost_table ? tmv_dispatch_tuning()->cost_table->name : "no table",
                 expected ? expected->name : "none");
}

/* The default stream threshold, from the cache sizes alone: half the L3,
 * capped at 8 MiB, and 8 MiB where no L3 is reported, whose size the record
 * then takes as 16 MiB for the cost model. */
Test(tunables, the_default_stream_threshold_is_half_the_l3_up_to_8_mib)
{
    if (strcmp(expect(), "ok") != 0)
        cr_skip_test("the values of this run are invalid");
    /* each Criterion test runs in its own process: the run's values go */
    unsetenv("TENSORMOVE_STREAM_THRESHOLD");
    unsetenv("TENSORMOVE_GATHER_PREFETCH");
    unsetenv("TENSORMOVE_TASK_MIN_BYTES");
    unsetenv("TENSORMOVE_COST_TABLE");
    static const struct {
        uint64_t l3, threshold;
    } cases[] = {
        {(uint64_t)105 << 20, (uint64_t)8 << 20},   /* a server socket's L3 */
        {(uint64_t)32 << 20, (uint64_t)8 << 20},
        {(uint64_t)16 << 20, (uint64_t)8 << 20},
        {(uint64_t)12 << 20, (uint64_t)6 << 20},
        {(uint64_t)3 << 20, (uint64_t)3 << 19},
        {0, (uint64_t)8 << 20},                     /* no L3 reported */
    };
    const uint64_t assumed = (uint64_t)16 << 20;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint64_t caches[3] = {48 << 10, 2 << 20, cases[i].l3};
        tmv_tuning t;
        cr_assert_eq(tmv_tuning_resolve(&t, caches, NULL), TMV_OK, "%s", tmv_last_error());
        cr_expect_eq(t.stream_threshold, cases[i].threshold, "L3 %llu: threshold %llu, expected %llu",
                     (unsigned long long)cases[i].l3, (unsigned long long)t.stream_threshold,
                     (unsigned long long)cases[i].threshold);
        cr_expect_eq(t.cache_bytes[2], cases[i].l3 != 0 ? cases[i].l3 : assumed, "L3 %llu: the record's %llu",
                     (unsigned long long)cases[i].l3, (unsigned long long)t.cache_bytes[2]);
    }
}
