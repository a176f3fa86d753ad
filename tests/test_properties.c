/* test_properties.c - seeded random properties, once per kernel set: round trips, independent
 * loops, and the library against the reference on casegen cases. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Cases per operator and kernel set; keeps the file well under 20 s with ASan. */
#define CASES_VS_REFERENCE 400
#define CASES_PER_PROPERTY 150

/* ------------------------------------------------ test-local addressing */

/* Row-major coordinates of element `linear` of sizes[0..n). Deliberately
 * not an odometer: divisions, so it shares nothing with the reference. */
static void unravel(uint64_t linear, uint32_t n, const uint32_t *sizes, uint32_t *coord)
{
    for (uint32_t d = n; d-- > 0;) {
        coord[d] = (uint32_t)(linear % sizes[d]);
        linear /= sizes[d];
    }
}

static uint64_t count_elements(const tmv_tensor_desc *t)
{
    uint64_t count = 1;
    for (uint32_t d = 0; d < t->dim_count; d++)
        count *= t->sizes[d];
    return count;
}

/* Byte offset of coord in t: explicit strides, or packed ones computed here. */
static size_t offset_of(const tmv_tensor_desc *t, const uint32_t *coord)
{
    uint64_t elements = 0, packed = 1;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        uint64_t stride = t->strides ? t->strides[d] : packed;
        elements += (uint64_t)coord[d] * (t->sizes[d] == 1 ? 0 : stride);
        packed *= t->sizes[d];
    }
    return (size_t)elements * cg_dtype_size(t->dtype);
}

static const unsigned char *element_at(const tmv_tensor_desc *t, const void *base, const uint32_t *coord)
{
    return (const unsigned char *)base + offset_of(t, coord);
}

/* Every byte of an output area that no element covers (bands and gaps) must
 * still hold its canary; `covered` marks the extent bytes elements own. */
static void assert_uncovered_canaries(const cg_region *r, const unsigned char *covered, const char *what)
{
    for (size_t i = 0; i < r->map_len; i++) {
        bool in_extent = i >= r->guard && i < r->guard + r->len;
        if (in_extent && covered[i - r->guard])
            continue;
        cr_assert_eq(r->map[i], cg_canary_byte(i), "%s: byte %" PRId64 " outside every element changed (0x%02x, canary 0x%02x)",
                     what, (int64_t)i - (int64_t)r->guard, r->map[i], cg_canary_byte(i));
    }
}

static void mark_covered(unsigned char *covered, size_t offset, size_t elem_size)
{
    memset(covered + offset, 1, elem_size);
}

/* Runs c through the public API into fresh canary areas; asserts c->expect. */
static cg_outputs *run_api(const cg_case *c)
{
    cg_outputs *outs = cg_outputs_new(c);
    cr_assert_not_null(outs);
    tmv_status s = tmv_execute(&c->op, c->in_ptrs, outs->ptrs);
    if (s != c->expect)
        cg_case_print(c, stderr, "  ");
    cr_assert_eq(s, c->expect, "execute returned %s, expected %s: %s", tmv_status_string(s),
                 tmv_status_string(c->expect), tmv_last_error());
    return outs;
}

static cg_case *new_case(tmv_op_type type, uint64_t seed, const cg_options *options)
{
    cg_case *c = cg_case_new(type, seed, options);
    cr_assert_not_null(c, "cg_case_new failed (out of memory?)");
    return c;
}

/* ------------------------------------------------------------ sweeps */

typedef void (*case_check)(const cg_case *c);

/* `cases` seeded cases, even ones of types[0] and odd ones of types[1],
 * each handed to `check`. */
typedef struct sweep {
    tmv_op_type types[2];
    uint64_t    seed;
    cg_options  options;
    unsigned    cases;
    case_check  check;
} sweep;

static void run_sweep(tmv_isa isa, void *ctx)
{
    (void)isa;
    const sweep *s = ctx;
    for (unsigned i = 0; i < s->cases; i++) {
        cg_case *c = new_case(s->types[i % 2], s->seed + i, &s->options);
        s->check(c);
        cg_case_free(c);
    }
}

/* Runs the sweep once per kernel set, seeded by the test's name. */
static void sweep_every_isa(sweep s, const char *name)
{
    s.seed = tu_seed(name);
    tu_for_each_isa(run_sweep, &s);
}

/* A property over CASES_PER_PROPERTY default cases alternating between two types. */
static void check_property(const char *name, tmv_op_type even, tmv_op_type odd, case_check check)
{
    sweep_every_isa((sweep){{even, odd}, 0, cg_default_options(), CASES_PER_PROPERTY, check}, name);
}

/* ------------------------------------------- the library vs the reference */

static void against_reference(const char *name, tmv_op_type type, unsigned bad_index, unsigned clamp)
{
    sweep s = {{type, type}, 0, cg_default_options(), CASES_VS_REFERENCE, tu_check_case};
    s.options.bad_index_percent = bad_index;
    s.options.clamp_percent = clamp;
    sweep_every_isa(s, name);
}

Test(vs_reference, join) { against_reference("vs_reference::join", TMV_OP_JOIN, 0, 0); }
Test(vs_reference, split) { against_reference("vs_reference::split", TMV_OP_SPLIT, 0, 0); }
Test(vs_reference, tile) { against_reference("vs_reference::tile", TMV_OP_TILE, 0, 0); }
Test(vs_reference, space_to_depth) { against_reference("vs_reference::space_to_depth", TMV_OP_SPACE_TO_DEPTH, 0, 0); }
Test(vs_reference, depth_to_space) { against_reference("vs_reference::depth_to_space", TMV_OP_DEPTH_TO_SPACE, 0, 0); }
Test(vs_reference, gather_nd) { against_reference("vs_reference::gather_nd", TMV_OP_GATHER_ND, 0, 0); }
/* Out-of-range indices (must fail, writing nothing) and the clamp flag. */
Test(vs_reference, gather_nd_bad_indices_and_clamp)
{
    against_reference("vs_reference::gather_nd_bad_indices_and_clamp", TMV_OP_GATHER_ND, 40, 40);
}

/* -------------------------------------------------- SPLIT after JOIN */

/* Splitting JOIN's output (in JOIN's output layout) along the same axis
 * into packed pieces gives back every input, element for element. */
static void split_undoes_join(const cg_case *join)
{
    const tmv_join_desc *j = &join->join;
    cg_outputs *joined = run_api(join);
    tmv_tensor_desc pieces[CG_MAX_PIECES];
    void *bufs[CG_MAX_PIECES];
    for (uint32_t k = 0; k < j->input_count; k++) {
        pieces[k] = tu_tensor(j->inputs[k].dtype, j->inputs[k].dim_count, j->inputs[k].sizes, NULL);
        bufs[k] = malloc(cg_extent_bytes(&pieces[k]) + 1);
        cr_assert_not_null(bufs[k]);
    }
    tmv_split_desc split = {j->output, j->input_count, pieces, j->axis};
    tmv_op_desc desc = {TMV_OP_SPLIT, &split, 0};
    const void *in[] = {joined->ptrs[0]};
    tmv_status s = tmv_execute(&desc, in, bufs);
    cr_assert_eq(s, TMV_OK, "split after join: %s", tmv_last_error());
    for (uint32_t k = 0; k < j->input_count; k++) {
        uint32_t coord[TMV_MAX_DIMS];
        size_t elem = cg_dtype_size(pieces[k].dtype);
        for (uint64_t e = 0; e < count_elements(&pieces[k]); e++) {
            unravel(e, pieces[k].dim_count, pieces[k].sizes, coord);
            if (memcmp(element_at(&pieces[k], bufs[k], coord), element_at(&j->inputs[k], join->in_ptrs[k], coord), elem)) {
                cg_case_print(join, stderr, "  ");
                cr_assert_fail("split after join: piece %u element %llu differs from the input", k,
                               (unsigned long long)e);
            }
        }
        free(bufs[k]);
    }
    cg_outputs_free(joined);
}

Test(round_trip, split_after_join_is_identity)
{
    check_property("round_trip::split_after_join_is_identity", TMV_OP_JOIN, TMV_OP_JOIN, split_undoes_join);
}

/* --------------------------------- DEPTH_TO_SPACE after SPACE_TO_DEPTH */

/* Runs the inverse operator on c's output (in c's output layout) into a
 * packed tensor of c's input sizes and checks it equals c's input. */
static void inverse_restores_input(const cg_case *c)
{
    const tmv_space_to_depth_desc *f = &c->space_to_depth; /* same members for both directions */
    cg_outputs *forward = run_api(c);
    tmv_tensor_desc back = tu_tensor(f->input->dtype, 4, f->input->sizes, NULL);
    void *buf = malloc(cg_extent_bytes(&back) + 1);
    cr_assert_not_null(buf);
    tmv_space_to_depth_desc s2d = {f->output, &back, f->block_size, f->order};
    tmv_depth_to_space_desc d2s = {f->output, &back, f->block_size, f->order};
    tmv_op_desc desc = c->op.type == TMV_OP_SPACE_TO_DEPTH ? (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &d2s, 0}
                                                           : (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s2d, 0};
    const void *in[] = {forward->ptrs[0]};
    void *out[] = {buf};
    tmv_status s = tmv_execute(&desc, in, out);
    cr_assert_eq(s, TMV_OK, "inverse of %s: %s", cg_op_name(c->op.type), tmv_last_error());
    uint32_t coord[4];
    for (uint64_t e = 0; e < count_elements(&back); e++) {
        unravel(e, 4, back.sizes, coord);
        if (memcmp(element_at(&back, buf, coord), element_at(f->input, c->in_ptrs[0], coord),
                   cg_dtype_size(back.dtype))) {
            cg_case_print(c, stderr, "  ");
            cr_assert_fail("%s then its inverse: element %llu differs from the input", cg_op_name(c->op.type),
                           (unsigned long long)e);
        }
    }
    free(buf);
    cg_outputs_free(forward);
}

/* casegen draws both orders; both directions are run here. */
Test(round_trip, depth_to_space_after_space_to_depth_is_identity)
{
    check_property("round_trip::depth_to_space_after_space_to_depth_is_identity", TMV_OP_DEPTH_TO_SPACE,
                   TMV_OP_SPACE_TO_DEPTH, inverse_restores_input);
}

/* ------------------------------------- TILE and GATHER_ND by independent loops */

/* Sets src to the input coordinate output element `coord` comes from. */
typedef void (*source_fn)(const cg_case *c, const uint32_t *coord, uint32_t *src);

/* Every element of c's single output equals the input element `source`
 * names, and every output byte no element covers keeps its canary. */
static void output_matches_loop(const cg_case *c, const tmv_tensor_desc *in, const tmv_tensor_desc *out,
                                source_fn source, const char *what)
{
    const size_t elem = cg_dtype_size(out->dtype);
    cg_outputs *outs = run_api(c);
    const cg_region *r = &outs->regions[0];
    unsigned char *covered = calloc(r->len + 1, 1);
    cr_assert_not_null(covered);
    uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS];
    for (uint64_t e = 0; e < count_elements(out); e++) {
        unravel(e, out->dim_count, out->sizes, coord);
        source(c, coord, src);
        size_t at = offset_of(out, coord);
        mark_covered(covered, at, elem);
        if (memcmp(r->data + at, element_at(in, c->in_ptrs[0], src), elem)) {
            cg_case_print(c, stderr, "  ");
            cr_assert_fail("%s: output element %llu differs from the independent loop", what,
                           (unsigned long long)e);
        }
    }
    assert_uncovered_canaries(r, covered, what);
    free(covered);
    cg_outputs_free(outs);
}

/* TILE: input[i mod sizes]. */
static void tile_source(const cg_case *c, const uint32_t *coord, uint32_t *src)
{
    const tmv_tensor_desc *in = c->tile.input;
    for (uint32_t d = 0; d < in->dim_count; d++)
        src[d] = coord[d] % in->sizes[d];
}

static void tile_matches_loop(const cg_case *c)
{
    output_matches_loop(c, c->tile.input, c->tile.output, tile_source, "tile");
}

Test(independent, tile)
{
    check_property("independent::tile", TMV_OP_TILE, TMV_OP_TILE, tile_matches_loop);
}

/* The index at `at`, made non-negative the SPEC way (in range: the cases
 * used here hold no bad index). */
static uint64_t index_at(const unsigned char *at, tmv_dtype type, uint32_t size)
{
    int64_t s;
    uint64_t u;
    switch (type) {
    case TMV_DTYPE_INT32: { int32_t v; memcpy(&v, at, 4); s = v; return (uint64_t)(s < 0 ? s + size : s); }
    case TMV_DTYPE_INT64: { memcpy(&s, at, 8); return (uint64_t)(s < 0 ? s + (int64_t)size : s); }
    case TMV_DTYPE_UINT32: { uint32_t v; memcpy(&v, at, 4); return v; }
    default: memcpy(&u, at, 8); return u;
    }
}

/* GATHER_ND: the meaningful output dims are (batch b, positions q-1-b,
 * trailing r-b-k), right-aligned; the positions pick an index tuple. */
static void gather_source(const cg_case *c, const uint32_t *oc, uint32_t *src)
{
    const tmv_gather_nd_desc *g = &c->gather_nd;
    const tmv_tensor_desc *in = g->input, *ind = g->indices;
    const uint32_t n = in->dim_count, r = g->input_dim_count, q = g->indices_dim_count, b = g->batch_dim_count;
    const uint32_t k = ind->sizes[n - 1], m = q - 1 + r - b - k;
    uint32_t ic[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++)
        ic[d] = src[d] = 0;
    for (uint32_t j = 0; j < q - 1; j++)
        ic[n - q + j] = oc[n - m + j];
    for (uint32_t j = 0; j < b; j++)
        src[n - r + j] = oc[n - m + j];
    for (uint32_t j = 0; j < k; j++) {
        ic[n - 1] = j;
        uint32_t size = in->sizes[n - r + b + j];
        uint64_t v = index_at(element_at(ind, c->in_ptrs[1], ic), ind->dtype, size);
        cr_assert_lt(v, size, "casegen produced an out-of-range index for an in-range case");
        src[n - r + b + j] = (uint32_t)v;
    }
    for (uint32_t j = 0; j < r - b - k; j++)
        src[n - r + b + k + j] = oc[n - m + q - 1 + j];
}

static void gather_matches_loop(const cg_case *c)
{
    if (c->expect != TMV_OK)
        return; /* a rejected case: the vs_reference sweeps check those */
    output_matches_loop(c, c->gather_nd.input, c->gather_nd.output, gather_source, "gather_nd");
}

Test(independent, gather_nd)
{
    check_property("independent::gather_nd", TMV_OP_GATHER_ND, TMV_OP_GATHER_ND, gather_matches_loop);
}
