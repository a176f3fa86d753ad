/* test_isa.c - kernel-set selection: TENSORMOVE_ISA (set per ctest run), tmv_set_isa, tmv_op_describe. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sets.h"
#include "tensormove.h"

static const uint32_t sizes[] = {2, 3};
static const tmv_tensor_desc tensor = {TMV_DTYPE_FLOAT32, 2, sizes, NULL};
static const tmv_join_desc join = {1, &tensor, &tensor, 0};
static const tmv_op_desc join_op = {TMV_OP_JOIN, &join, 0};

/* ctest runs this file once with TENSORMOVE_ISA unset, once "scalar", once "bogus". */
static const char *env(void)
{
    const char *v = getenv("TENSORMOVE_ISA");
    return v ? v : "";
}

Test(isa_env, the_variable_caps_or_fails_loudly)
{
    tmv_op *op = NULL;
    tmv_status st = tmv_op_create(&join_op, &op);
    if (strcmp(env(), "bogus") == 0) {
        cr_assert_eq(st, TMV_ERR_UNSUPPORTED_ISA, "create with TENSORMOVE_ISA=bogus gave %s",
                     tmv_status_string(st));
        cr_expect_null(op);
        cr_expect(strstr(tmv_last_error(), "TENSORMOVE_ISA") != NULL, "message: %s", tmv_last_error());
        cr_expect(strstr(tmv_last_error(), "bogus") != NULL, "message: %s", tmv_last_error());
        /* one-shot execute fails the same way */
        float in[6] = {0}, out[6] = {0};
        const void *ins[] = {in};
        void *outs[] = {out};
        cr_expect_eq(tmv_execute(&join_op, ins, outs), TMV_ERR_UNSUPPORTED_ISA);
        /* an explicit choice overrides the bad variable */
        cr_assert_eq(tmv_set_isa(TMV_ISA_SCALAR), TMV_OK);
        cr_assert_eq(tmv_op_create(&join_op, &op), TMV_OK, "%s", tmv_last_error());
        tmv_op_destroy(op);
        return;
    }
    cr_assert_eq(st, TMV_OK, "%s", tmv_last_error());
    if (strcmp(env(), "scalar") == 0) {
        cr_expect_eq(tmv_get_isa(), TMV_ISA_SCALAR);
        cr_expect(strstr(tmv_op_describe(op), "/scalar") != NULL, "plan: %s", tmv_op_describe(op));
    }
    cr_expect(strncmp(tmv_op_describe(op), "join:", 5) == 0, "plan: %s", tmv_op_describe(op));
    tmv_op_destroy(op);
}

Test(isa, set_isa_refuses_what_is_not_there)
{
    cr_expect_eq(tmv_set_isa((tmv_isa)99), TMV_ERR_UNSUPPORTED_ISA);
    cr_expect(strlen(tmv_last_error()) > 0);
    cr_expect_null(tmv_isa_name((tmv_isa)99));
#if defined(__x86_64__)
    cr_expect_eq(tmv_set_isa(TMV_ISA_NEON), TMV_ERR_UNSUPPORTED_ISA);
#elif defined(__aarch64__)
    cr_expect_eq(tmv_set_isa(TMV_ISA_AVX2), TMV_ERR_UNSUPPORTED_ISA);
#endif
    cr_expect_eq(tmv_set_isa(TMV_ISA_SCALAR), TMV_OK);
    cr_expect_eq(tmv_get_isa(), TMV_ISA_SCALAR);
}

Test(isa, ops_keep_the_set_they_were_created_with)
{
    if (strcmp(env(), "") != 0)
        cr_skip_test("needs TENSORMOVE_ISA unset");
    tmv_isa best = tmv_get_isa();
    tmv_op *op;
    cr_assert_eq(tmv_set_isa(TMV_ISA_SCALAR), TMV_OK);
    cr_assert_eq(tmv_op_create(&join_op, &op), TMV_OK);
    cr_assert_eq(tmv_set_isa(best), TMV_OK);
    cr_expect(strstr(tmv_op_describe(op), "/scalar") != NULL, "plan: %s", tmv_op_describe(op));
    tmv_op_destroy(op);
    cr_expect_str_eq(tmv_op_describe(NULL), "");
}

Test(isa, every_name_is_distinct_and_scalar_always_available)
{
    cr_expect_str_eq(tmv_isa_name(TMV_ISA_SCALAR), "scalar");
    for (unsigned i = 0; i < tmv_kernel_set_count; i++) {
        cr_expect_str_eq(tmv_isa_name(tmv_kernel_sets[i].isa), tmv_kernel_sets[i].name);
        for (unsigned j = i + 1; j < tmv_kernel_set_count; j++)
            cr_expect_str_neq(tmv_kernel_sets[i].name, tmv_kernel_sets[j].name);
    }
}

/* tmv_isa_list names exactly the sets tmv_set_isa takes, scalar first, and
 * the default set among them. */
Test(isa, the_list_is_what_set_isa_takes)
{
    const tmv_isa before = tmv_get_isa();
    tmv_isa listed[32];
    const uint32_t n = tmv_isa_list(listed, 32);
    cr_assert(n >= 1 && n <= 32, "%u sets", n);
    cr_expect_eq(tmv_isa_list(NULL, 0), n);
    cr_expect_eq(listed[0], TMV_ISA_SCALAR);
    bool has_default = false;
    for (unsigned i = 0; i < tmv_kernel_set_count; i++) {
        const tmv_isa isa = tmv_kernel_sets[i].isa;
        bool in_list = false;
        for (uint32_t k = 0; k < n; k++)
            in_list |= listed[k] == isa;
        has_default |= in_list && isa == before;
        cr_expect_eq(tmv_set_isa(isa) == TMV_OK, in_list, "%s: listed %d, tmv_set_isa %s", tmv_kernel_sets[i].name,
                     in_list, tmv_last_error());
    }
    cr_expect(has_default, "the default set %s is not listed", tmv_isa_name(before));
    cr_assert_eq(tmv_set_isa(before), TMV_OK);
}
