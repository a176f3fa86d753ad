/* test_typed_create.c - tmv_op_create_<op> against tmv_op_create: same operators, statuses and messages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#define CASES_PER_OP 60

/* The typed entry point of desc->type, on desc->desc cast to its own type. */
static tmv_status create_typed(const tmv_op_desc *desc, tmv_op **out)
{
    switch (desc->type) {
    case TMV_OP_JOIN: return tmv_op_create_join(desc->desc, desc->flags, out);
    case TMV_OP_SPLIT: return tmv_op_create_split(desc->desc, desc->flags, out);
    case TMV_OP_TILE: return tmv_op_create_tile(desc->desc, desc->flags, out);
    case TMV_OP_SPACE_TO_DEPTH: return tmv_op_create_space_to_depth(desc->desc, desc->flags, out);
    case TMV_OP_DEPTH_TO_SPACE: return tmv_op_create_depth_to_space(desc->desc, desc->flags, out);
    case TMV_OP_GATHER_ND: return tmv_op_create_gather_nd(desc->desc, desc->flags, out);
    }
    cr_assert_fail("no typed entry point for type %d", (int)desc->type);
    return TMV_ERR_INVALID_ARGUMENT;
}

/* Both entry points give the same status and message; on success the same
 * plan, and the same output bytes for c's inputs. */
static void expect_same_create(const cg_case *c, const tmv_op_desc *desc, const char *what)
{
    tmv_op *generic, *typed;
    const tmv_status generic_status = tmv_op_create(desc, &generic);
    char generic_message[512];
    snprintf(generic_message, sizeof generic_message, "%s", tmv_last_error());
    const tmv_status typed_status = create_typed(desc, &typed);
    cr_assert_eq(typed_status, generic_status, "%s: typed create gave %s, generic %s", what,
                 tmv_status_string(typed_status), tmv_status_string(generic_status));
    if (generic_status != TMV_OK) {
        cr_assert_null(typed, "%s: *out not NULL after a failed typed create", what);
        cr_assert_str_eq(tmv_last_error(), generic_message, "%s", what);
        return;
    }
    cr_assert_str_eq(tmv_op_describe(typed), tmv_op_describe(generic), "%s", what);
    cg_outputs *a = cg_outputs_new(c), *b = cg_outputs_new(c);
    cr_assert(a != NULL && b != NULL, "out of memory");
    cr_assert_eq(tmv_op_execute(generic, c->in_ptrs, a->ptrs), c->expect, "%s: %s", what, tmv_last_error());
    cr_assert_eq(tmv_op_execute(typed, c->in_ptrs, b->ptrs), c->expect, "%s: %s", what, tmv_last_error());
    cg_mismatch m;
    cr_assert(cg_outputs_equal(a, b, &m), "%s: outputs[%u] differ at byte %lld", what, m.output,
              (long long)m.offset);
    cg_outputs_free(a);
    cg_outputs_free(b);
    tmv_op_destroy(generic);
    tmv_op_destroy(typed);
}

/* One member of c's own description made invalid (each operator's check of
 * a member, not the generic checks). */
static void break_a_member(cg_case *c)
{
    switch (c->op.type) {
    case TMV_OP_JOIN: c->join.axis = 99; break;
    case TMV_OP_SPLIT: c->split.axis = 99; break;
    case TMV_OP_TILE: c->tile.repeats_count++; break;
    case TMV_OP_SPACE_TO_DEPTH: c->space_to_depth.block_size = 0; break;
    case TMV_OP_DEPTH_TO_SPACE: c->depth_to_space.order = (tmv_depth_space_order)7; break;
    case TMV_OP_GATHER_ND: c->gather_nd.batch_dim_count = 9; break;
    }
}

Test(typed_create, same_as_generic_on_random_cases)
{
    const uint64_t seed = tu_seed("typed_create::same_as_generic_on_random_cases");
    const cg_options options = cg_default_options();
    char what[96];
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++) {
        for (uint64_t k = 0; k < CASES_PER_OP; k++) {
            cg_case *c = cg_case_new((tmv_op_type)t, seed + k, &options);
            cr_assert_not_null(c);
            snprintf(what, sizeof what, "%s case 0x%llx", cg_op_name((tmv_op_type)t),
                     (unsigned long long)(seed + k));
            expect_same_create(c, &c->op, what);
            cg_case_free(c);
        }
    }
}

Test(typed_create, same_rejections_as_generic)
{
    const uint64_t seed = tu_seed("typed_create::same_rejections_as_generic");
    const cg_options options = cg_default_options();
    char what[96];
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++) {
        cg_case *c = cg_case_new((tmv_op_type)t, seed, &options);
        cr_assert_not_null(c);
        const char *name = cg_op_name((tmv_op_type)t);

        tmv_op_desc no_desc = {c->op.type, NULL, 0};
        snprintf(what, sizeof what, "%s with desc NULL", name);
        expect_same_create(c, &no_desc, what);

        tmv_op_desc bad_flags = c->op;
        bad_flags.flags = 0x80;
        snprintf(what, sizeof what, "%s with flags 0x80", name);
        expect_same_create(c, &bad_flags, what);

        break_a_member(c);
        snprintf(what, sizeof what, "%s with a broken member", name);
        expect_same_create(c, &c->op, what);

        tmv_op *op;
        cr_assert_eq(create_typed(&c->op, NULL), TMV_ERR_INVALID_ARGUMENT);
        cr_assert_str_eq(tmv_last_error(), "tmv_op_create: out is NULL");
        cr_assert_eq(create_typed(&no_desc, &op), TMV_ERR_INVALID_ARGUMENT);
        cr_assert_null(op);
        cg_case_free(c);
    }
}

Test(version, number_matches_header_and_string)
{
    cr_assert_eq(TMV_VERSION, TMV_VERSION_MAJOR * 10000 + TMV_VERSION_MINOR * 100 + TMV_VERSION_PATCH);
    cr_assert_eq(tmv_version_number(), (uint32_t)TMV_VERSION);
    char dotted[32];
    snprintf(dotted, sizeof dotted, "%u.%u.%u", tmv_version_number() / 10000,
             tmv_version_number() / 100 % 100, tmv_version_number() % 100);
    cr_assert_str_eq(tmv_version(), dotted);
}
