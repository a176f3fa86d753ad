/* check_kernels.c - tmv-check-kernels: each kernel of the registry this CPU runs, held byte for byte to the portable kernel on every plan step it accepts.
 *
 * Driven by the registry alone (src/registry.inc): no kernel is named here.
 * Cases: casegen's random ones (all six operators) and the directed families
 * (casegen_directed.h) that reach the geometries kernels specialize on.
 * check_case.c runs them, check_step.c runs one step with one kernel,
 * check_seed.c names cases, check_bench.c times, check_fault.c reports
 * crashes. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casegen_directed.h"
#include "check_case.h"
#include "check_fault.h"
#include "check_seed.h"
#include "kernel_sets.h"
#include "kernels.h"
#include "tensormove.h"
#include "tool_args.h"

#define MAX_ISAS 32
#define MAX_KERNELS 256
#define FULL_REPORTS 10   /* failures reported with the case and shape; the rest in two lines */

typedef struct options {
    uint64_t    seed;
    uint64_t    iterations;   /* random cases per operator */
    const char *kernel;       /* --kernel: a name substring, or NULL */
    int         isa;          /* --isa: only kernels of this set; -1 for all */
    bool        has_case;
    uint64_t    case_seed;
    bool        verbose, bench;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tmv-check-kernels [--seed N] [--iterations N] [--kernel SUBSTRING] [--isa NAME]\n"
            "                         [--case SEED] [--verbose] [--bench] [--list] [--help]\n"
            "Runs every kernel of the registry this CPU can run directly on the plan steps of\n"
            "random and directed operator cases whose shapes it accepts, under a tuning record\n"
            "that streams every output and one that streams none, and compares the status, the\n"
            "message and every output byte (guard bands and gaps included) with the portable\n"
            "kernel the scalar set picks for the same shape. Exits 1 on any mismatch and when\n"
            "no case reached a kernel the CPU runs.\n"
            "  --seed N          base seed (default: from the clock; always printed)\n"
            "  --iterations N    random cases per operator (default 300); the directed cases\n"
            "                    always run\n"
            "  --kernel SUBSTR   only kernels whose name contains SUBSTR\n"
            "  --isa NAME        only kernels of this kernel set (see --list)\n"
            "  --case SEED       only the case with this seed (from a failure report)\n"
            "  --verbose         print every case and every check\n"
            "  --bench           also time each kernel against the portable kernel on a sample\n"
            "                    of the shapes it accepted and print a table (no assertion)\n"
            "  --list            list every kernel of the registry, then exit\n");
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return false;
    *v = strtoull(s, &end, 0);
    return *end == '\0';
}

static tmv_isa available[MAX_ISAS];   /* the sets this CPU runs */
static uint32_t available_count;

static bool set_runs(tmv_isa isa)
{
    for (uint32_t i = 0; i < available_count && i < MAX_ISAS; i++)
        if (available[i] == isa)
            return true;
    return false;
}

static int isa_by_name(const char *name)
{
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (strcmp(tmv_kernel_sets[i].name, name) == 0)
            return (int)tmv_kernel_sets[i].isa;
    return -1;
}

static void list_kernels(void)
{
    printf("kernels of the registry, in preference order per primitive (* = this CPU runs its set):\n");
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        printf("  %c %-12s %-36s %-11s %s\n", set_runs(k->set) ? '*' : ' ', tmv_primitive_name(k->primitive),
               k->name, tmv_isa_name(k->set), tmv_kernel_has_prepare(k) ? "prepared" : "stateless");
    }
}

static bool parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--seed") == 0 && parse_u64(v, &o->seed)) {
            i++;
        } else if (strcmp(a, "--iterations") == 0 && parse_u64(v, &o->iterations)) {
            i++;
        } else if (strcmp(a, "--case") == 0 && parse_u64(v, &o->case_seed)) {
            o->has_case = true;
            i++;
        } else if (strcmp(a, "--kernel") == 0 && v != NULL) {
            o->kernel = v;
            i++;
        } else if (strcmp(a, "--isa") == 0 && v != NULL) {
            o->isa = isa_by_name(v);
            if (o->isa < 0 || !set_runs((tmv_isa)o->isa)) {
                fprintf(stderr, "tmv-check-kernels: \"%s\" is no kernel set this CPU has (see --list)\n", v);
                return false;
            }
            i++;
        } else if (strcmp(a, "--verbose") == 0) {
            o->verbose = true;
        } else if (strcmp(a, "--bench") == 0) {
            o->bench = true;
        } else {
            fprintf(stderr, "tmv-check-kernels: bad argument \"%s\"\n", a);
            usage(stderr);
            return false;
        }
    }
    return true;
}

/* The per-kernel table (with --case, of the kernels it reached), then a
 * FAIL line for each selected kernel no case reached (not with --case: one
 * case reaches few); returns how many. */
static unsigned report_kernels(const ck_kernel_stats *stats, bool one_case)
{
    unsigned unreached = 0;
    printf("\n  %-36s %-11s %7s %9s %9s %9s %7s\n", "kernel", "set", "cases", ck_records[0].name,
           ck_records[1].name, "checks", "failed");
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (stats[i].selected && (!one_case || stats[i].checks > 0))
            printf("  %-36s %-11s %7" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 "\n",
                   tmv_kernels[i].name, tmv_isa_name(tmv_kernels[i].set), stats[i].cases, stats[i].accepted[0],
                   stats[i].accepted[1], stats[i].checks, stats[i].failed);
    for (unsigned i = 0; i < tmv_kernel_count && !one_case; i++)
        if (stats[i].selected && stats[i].checks == 0) {
            printf("FAIL: no case reached kernel %s\n", tmv_kernels[i].name);
            unreached++;
        }
    return unreached;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    static ck_kernel_stats stats[MAX_KERNELS];
    options o = {.seed = (uint64_t)time(NULL), .iterations = 300, .isa = -1};
    available_count = tmv_isa_list(available, MAX_ISAS);
    if (tmv_kernel_count > MAX_KERNELS) {
        fprintf(stderr, "tmv-check-kernels: %u kernels, more than the %d it can count\n", tmv_kernel_count,
                MAX_KERNELS);
        return 2;
    }
    switch (tool_mode_of(argc, argv)) {
    case TOOL_HELP: usage(stdout); return 0;
    case TOOL_LIST: list_kernels(); return 0;
    case TOOL_RUN: break;
    }
    if (!parse_args(argc, argv, &o))
        return 2;

    unsigned selected = 0, runnable = 0;
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        const bool runs = set_runs(k->set);
        stats[i].selected = runs && (o.kernel == NULL || strstr(k->name, o.kernel) != NULL) &&
                            (o.isa < 0 || (int)k->set == o.isa);
        runnable += runs;
        selected += stats[i].selected;
    }
    if (selected == 0) {
        fprintf(stderr, "tmv-check-kernels: no kernel this CPU runs matches the options (see --list)\n");
        return 2;
    }
    uint64_t directed = 0;
    for (uint32_t f = 0; f < cg_directed_family_count(); f++)
        directed += cg_directed_geometry_count(f);
    printf("tmv-check-kernels %s, seed %" PRIu64 ": %u of the %u kernels this CPU runs (of %u in the registry), ",
           tmv_version(), o.seed, selected, runnable, tmv_kernel_count);
    if (o.has_case)
        printf("case 0x%016" PRIx64 "\n", o.case_seed);
    else
        printf("%" PRIu64 " random cases per operator and %" PRIu64 " directed cases\n", o.iterations, directed);
    printf("tuning records: %s (threshold %" PRIu64 ", prefetch %" PRIu32 "), %s (no threshold, prefetch %" PRIu32
           ")\n", ck_records[0].name, ck_records[0].tuning.stream_threshold, ck_records[0].tuning.gather_prefetch,
           ck_records[1].name, ck_records[1].tuning.gather_prefetch);

    ck_context ctx = {.stats = stats, .verbose = o.verbose, .bench = o.bench, .full_reports = FULL_REPORTS,
                      .bench_rng = {o.seed ^ 0xBE4C4ull}};
    ck_fault_catch();
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (o.has_case) {
        ck_check_case(&ctx, o.case_seed);
    } else {
        for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++)
            for (uint64_t i = 0; i < o.iterations; i++)
                ck_check_case(&ctx, ck_random_seed(o.seed, (tmv_op_type)t, i));
        for (uint32_t f = 0; f < cg_directed_family_count(); f++)
            for (uint64_t g = 0; g < cg_directed_geometry_count(f); g++)
                ck_check_case(&ctx, ck_directed_seed(o.seed, f, g));
    }
    const double elapsed = seconds_since(&t0);

    const unsigned unreached = report_kernels(stats, o.has_case);
    uint64_t checks = 0, failed = ctx.broken;
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        checks += stats[i].checks;
        failed += stats[i].failed;
    }
    if (o.bench) {
        ck_bench_print_head(stdout);
        for (unsigned i = 0; i < tmv_kernel_count; i++)
            if (stats[i].selected)
                ck_bench_print_row(stdout, tmv_kernels[i].name, &stats[i].bench);
    }
    printf("check-kernels: %u kernels, %" PRIu64 " checks, %" PRIu64 " failed%s (%" PRIu64 " cases, %.1f s)\n",
           selected, checks, failed, unreached ? ", some kernels reached by no case" : "", ctx.cases, elapsed);
    return failed == 0 && unreached == 0 ? 0 : 1;
}
