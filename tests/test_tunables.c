/* test_tunables.c - TENSORMOVE_STREAM_THRESHOLD and TENSORMOVE_GATHER_PREFETCH: accepted, or every create fails naming the variable. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "tensormove.h"

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
}
