/* test_one_shot.c - tmv_execute's kept operators: found by the description's contents, never by its
 * addresses; a description changed in place gets its own operator; errors are never kept; the kernel
 * set is part of the key; many descriptions and many threads churn the slots with exact results. */
#include <criterion/criterion.h>
#include <string.h>

#include "casegen.h"
#include "op_cache.h"
#include "reference/reference.h"
#include "test_util.h"
#include "thread_scenarios.h"

/* c's outputs through tmv_op_create + the reference (c must succeed). */
static cg_outputs *reference_outputs(const cg_case *c)
{
    tmv_op *op;
    cr_assert_eq(tmv_op_create(&c->op, &op), TMV_OK, "create: %s", tmv_last_error());
    cg_outputs *want = cg_outputs_new(c);
    cr_assert_not_null(want);
    cr_assert_eq(tmv_reference_execute(op, c->in_ptrs, want->ptrs), TMV_OK, "reference: %s", tmv_last_error());
    tmv_op_destroy(op);
    return want;
}

/* tmv_execute on c into fresh canary areas equals the reference byte for
 * byte (c->expect TMV_OK), or fails as c expects with the message create
 * + execute gives, writing nothing. */
static void check_one_shot(const cg_case *c, const char *pass)
{
    cg_outputs *got = cg_outputs_new(c);
    cr_assert_not_null(got);
    const tmv_status s = tmv_execute(&c->op, c->in_ptrs, got->ptrs);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tmv_last_error());
    if (s != c->expect)
        cg_case_print(c, stderr, "  ");
    cr_assert_eq(s, c->expect, "%s pass, case 0x%016llx: tmv_execute returned %s, expected %s: %s", pass,
                 (unsigned long long)c->seed, tmv_status_string(s), tmv_status_string(c->expect), msg);
    cg_mismatch m;
    if (s == TMV_OK) {
        cg_outputs *want = reference_outputs(c);
        cr_assert(cg_outputs_equal(want, got, &m), "%s pass, case 0x%016llx: output %u differs at byte %lld (%s)",
                  pass, (unsigned long long)c->seed, m.output, (long long)m.offset, m.where);
        cg_outputs_free(want);
    } else {
        tmv_op *op;
        cr_assert_eq(tmv_op_create(&c->op, &op), TMV_OK);
        cg_outputs *ref = cg_outputs_new(c);
        cr_assert_eq(tmv_op_execute(op, c->in_ptrs, ref->ptrs), s);
        cr_assert_str_eq(msg, tmv_last_error(), "%s pass: the kept path's message differs", pass);
        cr_assert(cg_outputs_guards_intact(got, &m) && cg_outputs_equal(ref, got, &m),
                  "%s pass: a failing tmv_execute wrote output %u at byte %lld", pass, m.output, (long long)m.offset);
        cg_outputs_free(ref);
        tmv_op_destroy(op);
    }
    cg_outputs_free(got);
}

/* Three times as many descriptions as slots, every operator type: each
 * runs once (misses that evict), then all again in reverse order (hits for
 * the last ones, misses for the evicted), every result exact. */
Test(one_shot, more_descriptions_than_slots_twice)
{
    const uint64_t seed = tu_seed("one_shot.more_descriptions_than_slots_twice");
    enum { CASES = 3 * TMV_OP_CACHE_SLOTS };
    cg_case *cases[CASES];
    for (unsigned i = 0; i < CASES; i++) {
        cases[i] = cg_case_new((tmv_op_type)(TMV_OP_JOIN + i % 6), seed + i, NULL);
        cr_assert_not_null(cases[i]);
    }
    for (unsigned i = 0; i < CASES; i++)
        check_one_shot(cases[i], "first");
    for (unsigned i = CASES; i-- > 0;)
        check_one_shot(cases[i], "second");
    for (unsigned i = 0; i < CASES; i++)
        cg_case_free(cases[i]);
}

/* TILE {2, 3} by `repeats` into `out` (sizes and strides the caller's). */
static void tile_desc(tmv_tile_desc *t, tmv_tensor_desc *in, tmv_tensor_desc *out, const uint32_t *in_sizes,
                      const uint32_t *out_sizes, const uint32_t *out_strides, const uint32_t *repeats)
{
    *in = tu_tensor(TMV_DTYPE_INT32, 2, in_sizes, NULL);
    *out = tu_tensor(TMV_DTYPE_INT32, 2, out_sizes, out_strides);
    *t = (tmv_tile_desc){in, out, 2, repeats};
}

/* The kept operator for d (a single-threaded test: it stays kept after
 * the release, which only lets it be evicted). */
static const tmv_op *kept_op(const tmv_op_desc *d)
{
    tmv_op *op;
    tmv_op_cache_hold *hold;
    cr_assert_eq(tmv_op_cache_acquire(d, &op, &hold), TMV_OK, "%s", tmv_last_error());
    cr_assert_not_null(hold, "an idle cache did not keep the operator");
    tmv_op_cache_release(hold);
    return op;
}

/* An equal description in other arrays finds the same operator; changing
 * one member in place (same addresses) finds another one, which computes
 * the changed description. */
Test(one_shot, found_by_contents_not_addresses)
{
    const uint32_t in_sizes[2] = {2, 3}, out_sizes[2] = {4, 3}, repeats[2] = {2, 1};
    tmv_tensor_desc in1, out1, in2, out2;
    tmv_tile_desc t1, t2;
    uint32_t in_sizes2[2], out_sizes2[2], repeats2[2], strides2[2] = {6, 1};
    memcpy(in_sizes2, in_sizes, sizeof in_sizes);
    memcpy(out_sizes2, out_sizes, sizeof out_sizes);
    memcpy(repeats2, repeats, sizeof repeats);
    tile_desc(&t1, &in1, &out1, in_sizes, out_sizes, NULL, repeats);
    tile_desc(&t2, &in2, &out2, in_sizes2, out_sizes2, NULL, repeats2);
    const tmv_op_desc d1 = {TMV_OP_TILE, &t1, 0}, d2 = {TMV_OP_TILE, &t2, 0};
    const tmv_op *op1 = kept_op(&d1);
    cr_assert_eq(kept_op(&d2), op1, "an equal description at other addresses planned a new operator");

    /* rows 6 elements apart in the output */
    out2.strides = strides2;
    cr_assert_neq(kept_op(&d2), op1, "a description with other strides found the old operator");
    out2.strides = NULL;
    /* repeats {1, 2} into {2, 6}, changed in place */
    repeats2[0] = 1, repeats2[1] = 2, out_sizes2[0] = 2, out_sizes2[1] = 6;
    cr_assert_neq(kept_op(&d2), op1, "a description changed in place found the old operator");
    const int32_t x[6] = {1, 2, 3, 4, 5, 6}, want[12] = {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6};
    int32_t got[12] = {0};
    const void *ins[] = {x};
    void *outs[] = {got};
    cr_assert_eq(tmv_execute(&d2, ins, outs), TMV_OK, "%s", tmv_last_error());
    cr_assert_arr_eq(got, want, sizeof want, "the description changed in place ran the old operator");
    /* and the first description still runs its own */
    const int32_t want1[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
    cr_assert_eq(tmv_execute(&d1, ins, outs), TMV_OK, "%s", tmv_last_error());
    cr_assert_arr_eq(got, want1, sizeof want1);
}

/* The kernel set is part of the key: after tmv_set_isa the same
 * description gets an operator planned for the new set (its description
 * equals a fresh create's under that set). */
static void planned_for_set(tmv_isa isa, void *ctx)
{
    const tmv_op_desc *d = ctx;
    const tmv_op *kept = kept_op(d);
    tmv_op *fresh;
    cr_assert_eq(tmv_op_create(d, &fresh), TMV_OK);
    cr_assert_str_eq(tmv_op_describe(kept), tmv_op_describe(fresh), "set %s: the kept operator is planned for "
                     "another set", tmv_isa_name(isa));
    tmv_op_destroy(fresh);
}

/* A JOIN of two {rows, cols} pieces along axis 1 into {rows, out_cols}
 * (2 * cols, or another width to make it invalid). */
typedef struct join_pair {
    uint32_t        piece[2], whole[2];
    tmv_tensor_desc pieces[2], out;
    tmv_join_desc   join;
    tmv_op_desc     desc;
} join_pair;

static void join_pair_init(join_pair *p, tmv_dtype dtype, uint32_t rows, uint32_t cols, uint32_t out_cols)
{
    p->piece[0] = p->whole[0] = rows;
    p->piece[1] = cols;
    p->whole[1] = out_cols;
    p->pieces[0] = p->pieces[1] = tu_tensor(dtype, 2, p->piece, NULL);
    p->out = tu_tensor(dtype, 2, p->whole, NULL);
    p->join = (tmv_join_desc){2, p->pieces, &p->out, 1};
    p->desc = (tmv_op_desc){TMV_OP_JOIN, &p->join, 0};
}

Test(one_shot, keyed_by_kernel_set)
{
    join_pair p; /* {64, 3} float pieces: a row kernel on every set */
    join_pair_init(&p, TMV_DTYPE_FLOAT32, 64, 3, 6);
    cr_assert_geq(tu_for_each_isa(planned_for_set, &p.desc), 1);
}

/* A bad description fails every time, with create's message (failures are
 * not kept), and a good one after it still runs. */
Test(one_shot, errors_are_not_kept)
{
    join_pair p; /* two {2, 3} pieces into {2, 7} */
    join_pair_init(&p, TMV_DTYPE_INT32, 2, 3, 7);
    const tmv_op_desc d = p.desc;
    int32_t a[6] = {0}, b[6] = {0}, o[14];
    const void *ins[] = {a, b};
    void *outs[] = {o};
    tmv_op *op;
    const tmv_status want = tmv_op_create(&d, &op);
    cr_assert_neq(want, TMV_OK);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tmv_last_error());
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(tmv_execute(&d, ins, outs), want, "call %d", i);
        cr_assert_str_eq(tmv_last_error(), msg, "call %d", i);
    }
    join_pair good; /* into {2, 6} */
    join_pair_init(&good, TMV_DTYPE_INT32, 2, 3, 6);
    const int32_t x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {7, 8, 9, 10, 11, 12};
    const int32_t joined[12] = {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12};
    const void *good_ins[] = {x, y};
    cr_assert_eq(tmv_execute(&good.desc, good_ins, outs), TMV_OK, "%s", tmv_last_error());
    cr_assert_arr_eq(o, joined, sizeof joined);
}

/* TS_THREADS threads call tmv_execute on twice as many descriptions as
 * there are slots, each from its own starting point, so operators are
 * kept, found and evicted while others run them (TSan runs this too). */
Test(one_shot, many_threads_churn_the_slots)
{
    char msg[1024];
    cr_assert(ts_one_shot_churn(tu_seed("one_shot.many_threads_churn_the_slots"), msg, sizeof msg), "%s", msg);
}
