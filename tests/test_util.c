/* test_util.c - Criterion-side helpers shared by the test suites. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include "test_util.h"

#include "kernel_sets.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kernels.h"
#include "op.h"
#include "reference/reference.h"

uint64_t tu_seed(const char *test_name)
{
    const char *env = getenv("TENSORMOVE_TEST_SEED");
    uint64_t seed;
    if (env != NULL && env[0] != '\0')
        seed = strtoull(env, NULL, 0);
    else
        seed = (uint64_t)time(NULL); /* the same for every test of one run, so one value repeats the run */
    fprintf(stderr, "%s: seed 0x%016" PRIx64 " (TENSORMOVE_TEST_SEED=0x%016" PRIx64 " repeats it)\n",
            test_name, seed, seed);
    return seed;
}

unsigned tu_for_each_isa(tu_isa_body body, void *ctx)
{
    static bool logged; /* once per test process: the list does not change */
    const tmv_isa saved = tmv_get_isa();
    unsigned ran = 0;
    for (unsigned i = 0; i < tmv_kernel_set_count; i++) {
        const tmv_kernel_set *set = &tmv_kernel_sets[i];
        if (tmv_set_isa(set->isa) != TMV_OK) {
            /* stderr, not cr_log_warn: a warning makes Criterion exit non-zero */
            if (!logged)
                fprintf(stderr, "kernel set %s: skipped, this %s\n", set->name,
                        set->built ? "CPU lacks it" : "build has no kernels for it");
            continue;
        }
        if (!logged)
            cr_log_info("kernel set %s: testing", set->name);
        body(set->isa, ctx);
        ran++;
    }
    logged = true;
    cr_assert_eq(tmv_set_isa(saved), TMV_OK, "restoring kernel set %s: %s", tmv_isa_name(saved),
                 tmv_last_error());
    cr_assert_gt(ran, 0, "no kernel set ran");
    return ran;
}

tmv_tensor_desc tu_tensor(tmv_dtype dtype, uint32_t dim_count, const uint32_t *sizes, const uint32_t *strides)
{
    tmv_tensor_desc t = {dtype, dim_count, sizes, strides};
    return t;
}

void tu_check_case(const cg_case *c)
{
    char msg[8192];
    bool ok = cg_check_against_reference(c, msg, sizeof msg);
    cr_assert(ok, "%s", msg);
}

tu_guarded tu_guarded_new(size_t len, const void *data, unsigned salt)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t body = (len + page - 1) / page * page;
    tu_guarded g;
    g.map_len = body + 2 * page;
    g.map = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(g.map, MAP_FAILED, "mmap failed");
    cr_assert_eq(mprotect(g.map, page, PROT_NONE), 0, "mprotect failed");
    cr_assert_eq(mprotect(g.map + page + body, page, PROT_NONE), 0, "mprotect failed");
    g.data = g.map + page + body - len;
    if (data != NULL && len > 0)
        memcpy(g.data, data, len);
    else
        for (size_t i = 0; i < len; i++)
            g.data[i] = (unsigned char)(i * 131u + salt * 29u + (i >> 8) + 1u);
    return g;
}

void tu_guarded_free(tu_guarded *g)
{
    munmap(g->map, g->map_len);
}

unsigned char tu_canary_at(int64_t offset)
{
    return cg_canary_byte((size_t)(offset + TU_GUARD));
}

/* Canary-filled areas, one per output, TU_GUARD bytes of band on each side. */
typedef struct areas {
    uint32_t       count;
    unsigned char *base[CG_MAX_TENSORS];
    void          *data[CG_MAX_TENSORS];
} areas;

static void areas_init(areas *a, uint32_t count, const size_t *bytes)
{
    cr_assert_leq(count, CG_MAX_TENSORS);
    a->count = count;
    for (uint32_t o = 0; o < count; o++) {
        a->base[o] = malloc(bytes[o] + 2 * TU_GUARD);
        cr_assert_not_null(a->base[o]);
        for (size_t i = 0; i < bytes[o] + 2 * TU_GUARD; i++)
            a->base[o][i] = cg_canary_byte(i);
        a->data[o] = a->base[o] + TU_GUARD;
    }
}

static void areas_free(areas *a)
{
    for (uint32_t o = 0; o < a->count; o++)
        free(a->base[o]);
}

/* Asserts area o holds `expected` in its extent (NULL: canaries) and canaries in its bands. */
static void assert_area(const char *what, const char *path, const areas *a, uint32_t o, size_t bytes,
                        const void *expected)
{
    const unsigned char *e = expected;
    for (int64_t i = -TU_GUARD; i < (int64_t)bytes + TU_GUARD; i++) {
        bool in_extent = i >= 0 && i < (int64_t)bytes;
        unsigned char want = in_extent && e != NULL ? e[i] : tu_canary_at(i);
        unsigned char got = a->base[o][i + TU_GUARD];
        cr_assert_eq(got, want, "%s (%s, kernel set %s): outputs[%u] byte %" PRId64 " (%s) is 0x%02x, expected 0x%02x",
                     what, path, tmv_isa_name(tmv_get_isa()), o, i, in_extent ? "extent" : "guard band", got, want);
    }
}

typedef struct example {
    const char        *what;
    const tmv_op_desc *desc;
    const void *const *inputs;
    uint32_t           output_count;
    const size_t      *out_bytes;
    const void *const *expected;   /* NULL when the call must fail */
    tmv_status         status;
} example;

/* The three ways an example runs: the one-shot call, create + execute, and
 * the reference on the created operator (the oracle must pass too). */
typedef enum run_path { PATH_ONE_SHOT, PATH_CREATE_EXECUTE, PATH_REFERENCE } run_path;

static void check_one_path(const example *ex, run_path how)
{
    static const char *const names[] = {"tmv_execute", "tmv_op_create + tmv_op_execute", "reference"};
    const char *path = names[how];
    areas a;
    areas_init(&a, ex->output_count, ex->out_bytes);
    tmv_status s;
    if (how == PATH_ONE_SHOT) {
        s = tmv_execute(ex->desc, ex->inputs, a.data);
    } else {
        tmv_op *op = NULL;
        s = tmv_op_create(ex->desc, &op);
        cr_assert_eq(s, TMV_OK, "%s: tmv_op_create: %s: %s", ex->what, tmv_status_string(s), tmv_last_error());
        s = how == PATH_REFERENCE ? tmv_reference_execute(op, ex->inputs, a.data)
                                  : tmv_op_execute(op, ex->inputs, a.data);
        tmv_op_destroy(op);
    }
    cr_assert_eq(s, ex->status, "%s (%s): returned %s, expected %s: %s", ex->what, path, tmv_status_string(s),
                 tmv_status_string(ex->status), tmv_last_error());
    for (uint32_t o = 0; o < ex->output_count; o++)
        assert_area(ex->what, path, &a, o, ex->out_bytes[o], ex->expected ? ex->expected[o] : NULL);
    areas_free(&a);
}

static void check_example_on_isa(tmv_isa isa, void *ctx)
{
    (void)isa;
    check_one_path(ctx, PATH_CREATE_EXECUTE);
    check_one_path(ctx, PATH_ONE_SHOT);
    check_one_path(ctx, PATH_REFERENCE);
}

void tu_expect_outputs(const char *what, const tmv_op_desc *desc, const void *const *inputs,
                       uint32_t output_count, const size_t *out_bytes, const void *const *expected)
{
    example ex = {what, desc, inputs, output_count, out_bytes, expected, TMV_OK};
    tu_for_each_isa(check_example_on_isa, &ex);
}

void tu_expect_execute_failure(const char *what, const tmv_op_desc *desc, const void *const *inputs,
                               uint32_t output_count, const size_t *out_bytes, tmv_status status)
{
    example ex = {what, desc, inputs, output_count, out_bytes, NULL, status};
    tu_for_each_isa(check_example_on_isa, &ex);
}

const struct tmv_kernel *tu_runnable_kernel(const char *name)
{
    tmv_isa sets[64];
    const uint32_t n = tmv_isa_list(sets, 64);
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (strcmp(tmv_kernels[i].name, name) == 0)
            for (uint32_t j = 0; j < n && j < 64; j++)
                if (sets[j] == tmv_kernels[i].set)
                    return &tmv_kernels[i];
    return NULL;
}
