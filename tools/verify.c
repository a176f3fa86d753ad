/* verify.c - tmv-verify: holds every kernel set this CPU has to the reference on random and edge cases. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casegen.h"
#include "kernel_sets.h"
#include "kernels.h"
#include "op.h"
#include "tensormove.h"
#include "tool_args.h"

#define MAX_SEEN 256     /* kernels */

typedef struct options {
    tool_options common;              /* iterations: cases per operator per kernel set */
    bool         ops[TMV_OP_GATHER_ND + 1];
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tmv-verify [--seed N] [--iterations N] [--op NAME]... [--isa NAME]\n"
            "                  [--case SEED] [--verbose] [--list] [--help]\n"
            "Runs the six operators on random cases (shapes, strides, data types, the\n"
            "edge matrix) with every kernel set this CPU has, in ascending order, and\n"
            "compares every output byte with the reference. Exits 1 on any mismatch.\n"
            "  --seed N        base seed (default: from the clock; always printed)\n"
            "  --iterations N  cases per operator and kernel set (default 500)\n"
            "  --op NAME       join, split, tile, space_to_depth, depth_to_space,\n"
            "                  gather_nd (repeatable; default all)\n"
            "  --isa NAME      only this kernel set (see --list)\n"
            "  --case SEED     run the single case with this case seed (from a failure report)\n"
            "  --verbose       print every case\n"
            "  --list          list kernel sets and kernels, then exit\n");
}

static tool_isas cpu_sets;

static void list_kernels(void)
{
    printf("kernel sets (* = this CPU has it):\n");
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (tmv_kernel_sets[i].built)
            printf("  %c %s\n", tool_isa_runs(&cpu_sets, (int)tmv_kernel_sets[i].isa) ? '*' : ' ',
                   tmv_kernel_sets[i].name);
    printf("kernels, in preference order per primitive:\n");
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        printf("  %-12s %s\n", tmv_primitive_name(tmv_kernels[i].primitive), tmv_kernels[i].name);
}

static int own_arg(const char *a, const char *v, void *ctx)
{
    options *o = ctx;
    if (strcmp(a, "--op") != 0 || v == NULL)
        return 0;
    tmv_op_type t;
    if (!cg_op_from_name(v, &t)) {
        fprintf(stderr, "tmv-verify: unknown operator \"%s\"\n", v);
        return -1;
    }
    o->ops[t] = true;
    return 2;
}

/* No --op: every operator. */
static void default_ops(options *o)
{
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++)
        if (o->ops[t])
            return;
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++)
        o->ops[t] = true;
}

/* Counts the kernels the plan of c's operator runs under the current set. */
static void record_kernels(const cg_case *c, unsigned *uses)
{
    tmv_op *op;
    if (tmv_op_create(&c->op, &op) != TMV_OK)
        return;
    bool used[MAX_SEEN] = {false};
    for (uint32_t s = 0; s < op->step_count; s++)
        used[op->steps[s].kernel - tmv_kernels] = true;
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        uses[i] += used[i];
    tmv_op_destroy(op);
}

/* Which kernels this operator's plans used, and how often: what
 * tmv_op_describe showed for the cases. */
static void report_uses(const unsigned *uses)
{
    printf("    kernels:");
    const char *sep = " ";
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (uses[i]) {
            printf("%s%s x%u", sep, tmv_kernels[i].name, uses[i]);
            sep = ", ";
        }
    printf("\n");
}

/* Kernels of exactly this set that no case reached: a gap in the cases, not a failure. */
static void report_unreached(tmv_isa isa, const bool *reached)
{
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (tmv_kernels[i].set == isa && !reached[i])
            printf("  note: no case reached kernel %s\n", tmv_kernels[i].name);
}

/* The seed of case i of operator t: a splitmix64 step of the base seed. */
static uint64_t case_seed(uint64_t base, tmv_op_type t, uint64_t i)
{
    cg_rng rng = {base ^ ((uint64_t)t << 56) ^ (i * 0x9E3779B97F4A7C15ull)};
    return cg_rng_next(&rng);
}

/* Options vary with the case so GATHER_ND also meets bad and clamped indices. */
static cg_options options_for(uint64_t seed)
{
    cg_options opt = cg_default_options();
    opt.bad_index_percent = seed % 4 == 0 ? 50 : 0;
    opt.clamp_percent = seed % 3 == 0 ? 50 : 0;
    return opt;
}

/* Runs one case; prints a report and a repro line on failure. */
static bool run_case(tmv_op_type t, uint64_t seed, tmv_isa isa, const options *o, unsigned *uses)
{
    cg_options opt = options_for(seed);
    cg_case *c = cg_case_new(t, seed, &opt);
    if (c == NULL) {
        fprintf(stderr, "tmv-verify: out of memory building case %" PRIu64 "\n", seed);
        return false;
    }
    if (o->common.verbose)
        cg_case_print(c, stdout, "    ");
    record_kernels(c, uses);
    char msg[8192];
    bool ok = cg_check_against_reference(c, msg, sizeof msg);
    if (!ok) {
        printf("FAIL %s on %s:\n%s\n", cg_op_name(t), tmv_isa_name(isa), msg);
        printf("  reproduce: tmv-verify --isa %s --op %s --case %" PRIu64 "\n", tmv_isa_name(isa),
               cg_op_name(t), seed);
    }
    cg_case_free(c);
    return ok;
}

int main(int argc, char **argv)
{
    /* Random cases are small; a low streaming threshold makes the kernels'
     * non-temporal paths run on the larger ones too. The library reads it at
     * its first call, so this comes first. */
    setenv("TENSORMOVE_STREAM_THRESHOLD", "4096", 0);
    options o = {.common = {.seed = (uint64_t)time(NULL), .iterations = 500, .isa = -1}};
    static const tool_desc tool = {"tmv-verify", MAX_SEEN, usage, list_kernels, own_arg};
    const int done = tool_start(&tool, argc, argv, &o.common, &o, &cpu_sets);
    if (done >= 0)
        return done;
    default_ops(&o);
    printf("tmv-verify %s, seed %" PRIu64 ", %" PRIu64 " cases per operator and kernel set, "
           "streaming stores from %s bytes\n", tmv_version(), o.common.seed, o.common.has_case ? 1 : o.common.iterations,
           getenv("TENSORMOVE_STREAM_THRESHOLD"));
    uint64_t failures = 0, cases = 0;
    for (uint32_t a = 0; a < cpu_sets.count; a++) {
        const int i = (int)cpu_sets.list[a];
        if (o.common.isa >= 0 && i != o.common.isa)
            continue;
        if (tmv_set_isa((tmv_isa)i) != TMV_OK) {
            printf("FAIL: tmv_set_isa(%s), which tmv_isa_list lists: %s\n", tmv_isa_name((tmv_isa)i),
                   tmv_last_error());
            failures++;
            continue;
        }
        bool reached[MAX_SEEN] = {false};
        for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++) {
            if (!o.ops[t])
                continue;
            uint64_t n = o.common.has_case ? 1 : o.common.iterations, failed = 0;
            unsigned uses[MAX_SEEN] = {0};
            for (uint64_t k = 0; k < n; k++) {
                uint64_t seed = o.common.has_case ? o.common.case_seed : case_seed(o.common.seed, (tmv_op_type)t, k);
                failed += !run_case((tmv_op_type)t, seed, (tmv_isa)i, &o, uses);
            }
            printf("%-11s %-15s %6" PRIu64 " cases, %" PRIu64 " failed\n", tmv_isa_name((tmv_isa)i),
                   cg_op_name((tmv_op_type)t), n, failed);
            report_uses(uses);
            for (unsigned u = 0; u < tmv_kernel_count; u++)
                reached[u] |= uses[u] != 0;
            failures += failed;
            cases += n;
        }
        if (!o.common.has_case)
            report_unreached((tmv_isa)i, reached);
    }
    printf("verify: %" PRIu64 " passed, %" PRIu64 " failed\n", cases - failures, failures);
    return failures == 0 ? 0 : 1;
}
