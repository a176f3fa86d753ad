/* check_kernels.c - tmv-check-kernels: each kernel of the registry this CPU runs, held byte for byte to the portable kernel on every plan step it accepts.
 *
 * Driven by the registry alone (src/registry.inc): no kernel is named here.
 * Cases: casegen's random ones (all six operators) and the directed families
 * (casegen_directed.h) that reach the geometries kernels specialize on.
 * check_case.c runs them, check_step.c runs one step with one kernel,
 * check_seed.c names cases, check_bench.c times, check_calibrate.c fits
 * the cost profiles to the times, check_fault.c reports crashes. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casegen_directed.h"
#include "check_calibrate.h"
#include "cpu_pin.h"
#include "check_case.h"
#include "check_fault.h"
#include "check_seed.h"
#include "kernel_sets.h"
#include "kernels.h"
#include "tensormove.h"
#include "tool_args.h"

#define MAX_KERNELS 256
#define FULL_REPORTS 10   /* failures reported with the case and shape; the rest in two lines */
/* Random cases per operator when --iterations is not given. Calibrating
 * takes more: the directed cases alone leave some kernels' samples short of
 * CK_CALIBRATION_SHAPES, and a case costs far less than the timing (with
 * 1000, a whole calibration took 15 s on a 2-core AMD EPYC). */
#define ITERATIONS 300
#define CALIBRATE_ITERATIONS 1000
#define ITERATIONS_NOT_GIVEN UINT64_MAX

typedef struct options {
    tool_options common;      /* iterations: random cases per operator */
    const char  *kernel;      /* --kernel: name substrings, comma-separated, or NULL */
    bool         bench;
    const char  *calibrate;   /* --calibrate=PATH: the table to write, or NULL */
    double       scale;       /* --calibrate-scale=F: the fitted prices' factor (1) */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tmv-check-kernels [--seed N] [--iterations N] [--kernel SUBSTRING] [--isa NAME]\n"
            "                         [--case SEED] [--verbose] [--bench] [--calibrate=PATH]\n"
            "                         [--calibrate-scale=F] [--list] [--help]\n"
            "Runs every kernel of the registry this CPU can run directly on the plan steps of\n"
            "random and directed operator cases whose shapes it accepts, under a tuning record\n"
            "that streams every output and one that streams none, and compares the status, the\n"
            "message and every output byte (guard bands and gaps included) with the portable\n"
            "kernel the scalar set picks for the same shape. Exits 1 on any mismatch and when\n"
            "no case reached a kernel the CPU runs.\n"
            "  --seed N          base seed (default: from the clock; always printed)\n"
            "  --iterations N    random cases per operator (default 300, 1000 with --calibrate);\n"
            "                    the directed cases always run\n"
            "  --kernel SUBSTR   only kernels whose name contains SUBSTR (or one of a comma-\n"
            "                    separated list: --kernel copy_deinterleave,copy_interleave)\n"
            "  --isa NAME        only kernels of this kernel set (see --list)\n"
            "  --case SEED       only the case with this seed (from a failure report)\n"
            "  --verbose         print every case and every check\n"
            "  --bench           also time each kernel against the portable kernel on a sample\n"
            "                    of the shapes it accepted and print a table (no assertion), on\n"
            "                    the CPU where an 8 KiB copy runs fastest\n"
            "  --calibrate=PATH  time every kernel on up to 512 shapes it accepts and write their\n"
            "                    fitted cost profiles (src/cost.h) to PATH, a table of\n"
            "                    src/cost_tables/ (implies --bench); with --kernel or --isa,\n"
            "                    only the rows of those kernels are rewritten, PATH's others kept\n"
            "  --calibrate-scale=F  multiply the fitted prices by F before writing them: a kernel\n"
            "                    timed on another machine than the table's, F the table's prices\n"
            "                    over this machine's times (tmv-plan-regret's bias per kernel)\n"
            "  --list            list every kernel of the registry, then exit\n");
}

static tool_isas cpu_sets;

static void list_kernels(void)
{
    printf("kernels of the registry, in preference order per primitive (* = this CPU runs its set):\n");
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        printf("  %c %-12s %-36s %-11s %s\n", tool_isa_runs(&cpu_sets, (int)k->set) ? '*' : ' ',
               tmv_primitive_name(k->primitive),
               k->name, tmv_isa_name(k->set), tmv_kernel_has_prepare(k) ? "prepared" : "stateless");
    }
}

static int own_arg(const char *a, const char *v, void *ctx)
{
    options *o = ctx;
    if (strcmp(a, "--kernel") == 0 && v != NULL) {
        o->kernel = v;
        return 2;
    }
    if (strcmp(a, "--bench") == 0) {
        o->bench = true;
        return 1;
    }
    static const char scale[] = "--calibrate-scale=";
    if (strncmp(a, scale, sizeof scale - 1) == 0) {
        char *end;
        o->scale = strtod(a + sizeof scale - 1, &end);
        if (*end != '\0' || !(o->scale > 0)) {
            fprintf(stderr, "tmv-check-kernels: --calibrate-scale needs a positive number, not '%s'\n",
                    a + sizeof scale - 1);
            exit(2);
        }
        return 1;
    }
    static const char calibrate[] = "--calibrate=";
    if (strncmp(a, calibrate, sizeof calibrate - 1) == 0 && a[sizeof calibrate - 1] != '\0') {
        o->calibrate = a + sizeof calibrate - 1;
        return 1;
    }
    return 0;
}

/* The per-kernel table (with --case, of the kernels it reached), then a
 * FAIL line for each selected kernel no case reached (not with --case: one
 * case reaches few); returns how many. */
static unsigned report_kernels(const ck_kernel_stats *stats, bool one_case)
{
    unsigned unreached = 0;
    printf("\n  %-36s %-11s %7s %9s %9s %10s %9s %7s\n", "kernel", "set", "cases", ck_records[0].name,
           ck_records[1].name, ck_records[2].name, "checks", "failed");
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (stats[i].selected && (!one_case || stats[i].checks > 0))
            printf("  %-36s %-11s %7" PRIu64 " %9" PRIu64 " %9" PRIu64 " %10" PRIu64 " %9" PRIu64 " %7" PRIu64 "\n",
                   tmv_kernels[i].name, tmv_isa_name(tmv_kernels[i].set), stats[i].cases, stats[i].accepted[0],
                   stats[i].accepted[1], stats[i].accepted[2], stats[i].checks, stats[i].failed);
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

/* Whether name contains one of the comma-separated substrings of list. */
static bool name_matches(const char *name, const char *list)
{
    for (const char *part = list;; ) {
        const size_t n = strcspn(part, ",");
        char one[128];
        snprintf(one, sizeof one, "%.*s", (int)n, part);
        if (n > 0 && strstr(name, one) != NULL)
            return true;
        if (part[n] == '\0')
            return false;
        part += n + 1;
    }
}

int main(int argc, char **argv)
{
    static ck_kernel_stats stats[MAX_KERNELS];
    static ck_calibration calibration[MAX_KERNELS];
    options o = {.common = {.seed = (uint64_t)time(NULL), .iterations = ITERATIONS_NOT_GIVEN, .isa = -1}, .scale = 1};
    static const tool_desc tool = {"tmv-check-kernels", MAX_KERNELS, usage, list_kernels, own_arg};
    const int done = tool_start(&tool, argc, argv, &o.common, &o, &cpu_sets);
    if (done >= 0)
        return done;
    if (o.common.iterations == ITERATIONS_NOT_GIVEN)
        o.common.iterations = o.calibrate != NULL ? CALIBRATE_ITERATIONS : ITERATIONS;
    o.bench |= o.calibrate != NULL;
    if (o.bench) {   /* timings on the fastest CPU (bench/cpu_pin.h): on another they ran 1.3-1.8x slower */
        char pinned[1024];
        (void)bench_cpu_choose("fastest", pinned, sizeof pinned);
        printf("tmv-check-kernels: timing %s\n", pinned);
    }

    unsigned selected = 0, runnable = 0;
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        const bool runs = tool_isa_runs(&cpu_sets, (int)k->set);
        stats[i].selected = runs && (o.kernel == NULL || name_matches(k->name, o.kernel)) &&
                            (o.common.isa < 0 || (int)k->set == o.common.isa);
        runnable += runs;
        selected += stats[i].selected;
        if (stats[i].selected && o.calibrate != NULL)
            stats[i].bench.calibration = &calibration[i];
    }
    if (selected == 0) {
        fprintf(stderr, "tmv-check-kernels: no kernel this CPU runs matches the options (see --list)\n");
        return 2;
    }
    uint64_t directed = 0;
    for (uint32_t f = 0; f < cg_directed_family_count(); f++)
        directed += cg_directed_geometry_count(f);
    printf("tmv-check-kernels %s, seed %" PRIu64 ": %u of the %u kernels this CPU runs (of %u in the registry), ",
           tmv_version(), o.common.seed, selected, runnable, tmv_kernel_count);
    if (o.common.has_case)
        printf("case 0x%016" PRIx64 "\n", o.common.case_seed);
    else
        printf("%" PRIu64 " random cases per operator and %" PRIu64 " directed cases\n", o.common.iterations, directed);
    printf("tuning records: %s (threshold %" PRIu64 ", prefetch %" PRIu32 "), %s (no threshold, prefetch %" PRIu32
           "), %s (its caches %" PRIu64 ", %" PRIu64 " and %" PRIu64 " bytes)\n", ck_records[0].name,
           ck_records[0].tuning.stream_threshold, ck_records[0].tuning.gather_prefetch, ck_records[1].name,
           ck_records[1].tuning.gather_prefetch, ck_records[2].name, ck_records[2].tuning.cache_bytes[0],
           ck_records[2].tuning.cache_bytes[1], ck_records[2].tuning.cache_bytes[2]);

    ck_context ctx = {.stats = stats, .verbose = o.common.verbose, .bench = o.bench, .full_reports = FULL_REPORTS,
                      .bench_rng = {o.common.seed ^ 0xBE4C4ull}};
    ck_fault_catch();
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (o.common.has_case) {
        ck_check_case(&ctx, o.common.case_seed);
    } else {
        for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++)
            for (uint64_t i = 0; i < o.common.iterations; i++)
                ck_check_case(&ctx, ck_random_seed(o.common.seed, (tmv_op_type)t, i));
        for (uint32_t f = 0; f < cg_directed_family_count(); f++)
            for (uint64_t g = 0; g < cg_directed_geometry_count(f); g++)
                ck_check_case(&ctx, ck_directed_seed(o.common.seed, f, g));
    }
    const double elapsed = seconds_since(&t0);

    const unsigned unreached = report_kernels(stats, o.common.has_case);
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
    /* a calibration of some kernels (--kernel, --isa) rewrites their rows only */
    static bool refit[MAX_KERNELS];
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        refit[i] = stats[i].selected;
    const bool some = o.kernel != NULL || o.common.isa >= 0;
    const bool written = o.calibrate == NULL || ck_calibration_write(calibration, some ? refit : NULL, o.scale, o.calibrate,
                                                                           argc, argv);
    printf("check-kernels: %u kernels, %" PRIu64 " checks, %" PRIu64 " failed%s (%" PRIu64 " cases, %.1f s)\n",
           selected, checks, failed, unreached ? ", some kernels reached by no case" : "", ctx.cases, elapsed);
    return failed == 0 && unreached == 0 && written ? 0 : 1;
}
