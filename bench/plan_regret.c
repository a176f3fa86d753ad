/* plan_regret.c - tmv-plan-regret: the planner's choices checked against the clock. For every case of the
 * generated sweep (or the model zoo, or the benchmark suite's own cases), every step of its plan is run
 * with each kernel the planner chose among, and the kernel it chose is compared with the fastest of them.
 *
 * The cost model (src/cost.h) is fitted on `tmv-check-kernels --calibrate`'s random shapes; these are
 * the sweep's and the zoo's, which it never saw. Per step: the regret (the chosen kernel's time over the
 * fastest's), and per kernel: its estimate over its time, the bias the choices follow from. A whole table
 * or one kernel's row can be judged here in a minute, before an A/B of the benchmark confirms it; with
 * --tsv the rows (features included) can be re-priced offline under another table.
 *
 * One thread, the default kernel set (TENSORMOVE_ISA lowers it), on the CPU where an 8 KiB copy runs fastest
 * (cpu_pin.h; --cpu= chooses another); gathers are not rated and are skipped. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"
#include "cpu_pin.h"
#include "cost.h"
#include "kernels.h"
#include "op.h"

#define MAX_ENTRIES 8192
#define MAX_STEPS 16384
#define SAMPLE_NS 50000.0   /* each timing sample runs the step at least this long */
#define SAMPLES 7

typedef struct entry {
    const bench_case *c;
    uint64_t target;
    const char *size_name;
} entry;

static struct {
    const char *sizes;   /* ",8KiB,1MiB," */
    bool zoo;            /* the model zoo instead: every case, at its own size */
    bool suite;          /* the benchmark suite's cases instead, at each size class they list */
    entry entries[MAX_ENTRIES];
    unsigned count;
    unsigned judged, failed, inconsistent;   /* cases judged; cases not built or planned; steps off the list */
} run;

/* The sweep, the zoo and the suite register their cases here (cases.h): the sweep's at the asked
 * sizes, every one of the others'. */
void bench_register_case(const bench_case *c, uint64_t target, const char *size_name) {
    char key[64];
    snprintf(key, sizeof key, ",%s,", size_name);
    if ((run.zoo || run.suite || strstr(run.sizes, key)) && run.count < MAX_ENTRIES)
        run.entries[run.count++] = (entry){c, target, size_name};
}

/* The suite's table (cases.c): each case at each size class it lists (the tiny class at its own
 * shape). The runner registers them per kernel set; here they run under the default one. */
static void register_suite(void) {
    for (size_t i = 0; i < bench_case_count; i++)
        for (unsigned z = 0; z < SIZE_CLASS_COUNT; z++)
            if (bench_cases[i].sizes >> z & 1u)
                bench_register_case(&bench_cases[i], size_class_bytes[z], size_class_names[z]);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The least time of one run of the step over SAMPLES samples (after one warm-up run). */
static double step_ns(const tmv_step *step, const void *const *in, void *const *out) {
    tmv_step_execute(step, in, out);
    unsigned calls = 1;
    for (;;) {
        const double t = now_ns();
        for (unsigned i = 0; i < calls; i++) tmv_step_execute(step, in, out);
        if (now_ns() - t >= SAMPLE_NS || calls >= (1u << 20)) break;
        calls *= 2;
    }
    double best = INFINITY;
    for (int s = 0; s < SAMPLES; s++) {
        const double t = now_ns();
        for (unsigned i = 0; i < calls; i++) tmv_step_execute(step, in, out);
        const double ns = (now_ns() - t) / calls;
        if (ns < best) best = ns;
    }
    return best;
}

/* The shape a step's kernel reads (of its primitive), in the step. */
static void *step_shape(tmv_step *step) {
    switch (step->kind) {
    case TMV_STEP_COPY: return &step->u.copy.shape;
    case TMV_STEP_JOIN_ROWS: return &step->u.join_rows.shape;
    case TMV_STEP_SPLIT_ROWS: return &step->u.split_rows.shape;
    default: return NULL;
    }
}

/* The tuning record the step was planned under. */
static const tmv_tuning *step_tuning(const tmv_step *step) {
    switch (step->kind) {
    case TMV_STEP_COPY: return step->u.copy.shape.tuning;
    case TMV_STEP_JOIN_ROWS: return step->u.join_rows.shape.tuning;
    default: return step->u.split_rows.shape.tuning;
    }
}

/* The step with kernel k in place of its own, its state (if k has a prepare) in `state`. */
static tmv_step step_with(const tmv_step *step, const tmv_kernel *k, void *state) {
    tmv_step t = *step;
    void *shape = step_shape(&t);
    const void *prepared = NULL;
    if (tmv_kernel_has_prepare(k)) {
        tmv_kernel_prepare(k, shape, state);
        prepared = state;
    }
    t.kernel = k;
    switch (t.kind) {
    case TMV_STEP_COPY: t.u.copy.run = k->fn.copy.run; t.u.copy.shape.state = prepared; break;
    case TMV_STEP_JOIN_ROWS: t.u.join_rows.run = k->fn.join_rows.run; t.u.join_rows.shape.state = prepared; break;
    case TMV_STEP_SPLIT_ROWS: t.u.split_rows.run = k->fn.split_rows.run; t.u.split_rows.shape.state = prepared; break;
    default: break;
    }
    return t;
}

/* The kernels the planner chose the step's among (the step's own included). */
static unsigned candidates_of(tmv_step *step, tmv_isa isa, const tmv_kernel **out) {
    switch (step->kind) {
    case TMV_STEP_COPY: return tmv_copy_candidates(isa, &step->u.copy.shape, out, TMV_COST_CANDIDATES_MAX);
    case TMV_STEP_JOIN_ROWS:
        return tmv_candidates(TMV_PRIMITIVE_JOIN_ROWS, isa, step_shape(step), out, TMV_COST_CANDIDATES_MAX);
    case TMV_STEP_SPLIT_ROWS:
        return tmv_candidates(TMV_PRIMITIVE_SPLIT_ROWS, isa, step_shape(step), out, TMV_COST_CANDIDATES_MAX);
    default: return 0;
    }
}

/* One step's verdict: the chosen kernel and the fastest, their times and estimates. */
typedef struct verdict {
    char case_name[200];
    unsigned step;
    const tmv_kernel *chosen, *fastest;
    double chosen_ns, fastest_ns, chosen_est, fastest_est;
} verdict;

/* A kernel's estimates over its times, over every step it was a candidate in. */
typedef struct bias {
    double ratio[MAX_STEPS];
    unsigned n;
} bias;

static verdict verdicts[MAX_STEPS];
static unsigned verdict_count;
static bias *biases;   /* one per registry row */

/* Times every candidate of one step; the verdict, and a TSV row per candidate to tsv (or NULL). */
static void judge_step(const char *case_name, const char *size, unsigned index, tmv_step *step, tmv_isa isa,
                       const bench_setup *s, FILE *tsv) {
    static _Alignas(64) unsigned char state[TMV_KERNEL_STATE_BYTES];
    const tmv_kernel *cand[TMV_COST_CANDIDATES_MAX];
    const unsigned n = candidates_of(step, isa, cand);
    if (n < 2 || verdict_count == MAX_STEPS) return;
    verdict *v = &verdicts[verdict_count++];
    memset(v, 0, sizeof *v);
    snprintf(v->case_name, sizeof v->case_name, "%s/%s", case_name, size);
    v->step = index;
    v->fastest_ns = INFINITY;
    for (unsigned i = 0; i < n; i++) {
        tmv_step t = step_with(step, cand[i], state);
        const double ns = step_ns(&t, s->in, s->out), est = tmv_cost_of(cand[i], step_shape(&t));
        if (cand[i] == step->kernel) {
            v->chosen = cand[i];
            v->chosen_ns = ns;
            v->chosen_est = est;
        }
        if (ns < v->fastest_ns) {
            v->fastest = cand[i];
            v->fastest_ns = ns;
            v->fastest_est = est;
        }
        bias *b = &biases[cand[i] - tmv_kernels];
        if (est > 0 && b->n < MAX_STEPS) b->ratio[b->n++] = est / ns;
        if (tsv) {
            tmv_cost_features f = {0};
            tmv_cost_kernel_features(cand[i], step_shape(&t), &f);
            const double traffic = tmv_cost_working_set(cand[i]->primitive, step_shape(&t), f);
            const bool streamed = tmv_cost_streams(cand[i], step_shape(&t), f.bytes, step_tuning(&t));
            const double floor = tmv_cost_floor_ns(f.bytes, traffic, traffic, step_tuning(&t), streamed);
            const tmv_cost_profile *p = tmv_cost_profile_in(step_tuning(&t)->cost_table, cand[i]);
            fprintf(tsv, "%s\t%s\t%u\t%s\t%d\t%.2f\t%.2f\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%d\t%.0f\t%.2f\n",
                    case_name, size, index, cand[i]->name, cand[i] == step->kernel, est, ns, f.blocks, f.lines,
                    f.pieces, f.bytes, floor, streamed, traffic, p != NULL ? tmv_cost_compute_ns(p, f) : -1.0);
        }
    }
    if (v->chosen == NULL) {   /* the plan's kernel is not one the registry lists for its shape */
        fprintf(stderr, "tmv-plan-regret: %s step %u runs %s, which is not among its shape's candidates\n",
                v->case_name, index, step->kernel->name);
        run.inconsistent++;
        verdict_count--;
    }
}

/* Builds an entry's case (unless the filter leaves it out), plans it and judges each step. */
static void judge_entry(const entry *e, const char *filter, FILE *tsv) {
    char label[128], name[160];
    e->c->kind->label(e->c, label, sizeof label);
    snprintf(name, sizeof name, "%s/%s/%s/%s", e->c->kind->family, e->c->kind->variant, label,
             dtype_name(e->c->dtype));
    if (filter && !strstr(name, filter)) return;
    bench_setup s;
    memset(&s, 0, sizeof s);
    tmv_op *op = NULL;
    const bool ok = e->c->kind->build(e->c, e->target, &s) == 0 && (s.one_shot || tmv_op_create(&s.op, &op) == TMV_OK);
    run.judged += ok;
    run.failed += !ok;
    bench_cpu_pin(1);   /* the case's steps on the CPU that is fastest now */
    for (uint32_t i = 0; ok && op && i < op->step_count; i++)
        judge_step(name, e->size_name, i, &op->steps[i], op->isa, &s, tsv);
    tmv_op_destroy(op);
    setup_free(&s);
}

static int by_ratio(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_regret(const void *a, const void *b) {
    const verdict *x = a, *y = b;
    const double rx = x->chosen_ns / x->fastest_ns, ry = y->chosen_ns / y->fastest_ns;
    return (rx < ry) - (rx > ry);
}

static void report(unsigned worst) {
    double log_sum = 0;
    unsigned above_125 = 0, above_2 = 0;
    for (unsigned i = 0; i < verdict_count; i++) {
        const double r = verdicts[i].chosen_ns / verdicts[i].fastest_ns;
        log_sum += log(r);
        above_125 += r > 1.25;
        above_2 += r > 2;
    }
    printf("\nregret (the chosen kernel's time / the fastest candidate's) over %u steps with more than one "
           "candidate:\n  geometric mean %.3f; above 1.25: %u steps; above 2: %u\n",
           verdict_count, verdict_count ? exp(log_sum / verdict_count) : 1.0, above_125, above_2);
    qsort(verdicts, verdict_count, sizeof verdicts[0], by_regret);
    printf("\nthe %u worst (ns measured / rated):\n", worst);
    for (unsigned i = 0; i < worst && i < verdict_count; i++) {
        const verdict *v = &verdicts[i];
        printf("  %5.2f  %-50s step %u: %s %.0f / %.0f, fastest %s %.0f / %.0f\n", v->chosen_ns / v->fastest_ns,
               v->case_name, v->step, v->chosen->name, v->chosen_ns, v->chosen_est, v->fastest->name,
               v->fastest_ns, v->fastest_est);
    }
    printf("\nthe model's bias per kernel (rated / measured, over the steps it was a candidate in):\n"
           "  %-36s %6s %7s %7s %7s\n", "kernel", "steps", "median", "p10", "p90");
    for (unsigned k = 0; k < tmv_kernel_count; k++) {
        bias *b = &biases[k];
        if (b->n == 0) continue;
        qsort(b->ratio, b->n, sizeof b->ratio[0], by_ratio);
        printf("  %-36s %6u %7.2f %7.2f %7.2f\n", tmv_kernels[k].name, b->n, b->ratio[b->n / 2],
               b->ratio[b->n / 10], b->ratio[9 * b->n / 10]);
    }
}

static void usage(void) {
    fprintf(stderr,
            "usage: tmv-plan-regret [--sizes=8KiB,1MiB | --sizes=zoo | --sizes=suite] [--filter=TEXT] [--worst=N]\n"
            "                       [--tsv=PATH] [--cpu=fastest|none|N]\n"
            "  --sizes   the sweep's output sizes to run (8KiB, 1MiB, 64MiB, 256MiB), the model zoo, or\n"
            "            the benchmark suite's cases at their size classes (default 8KiB,1MiB)\n"
            "  --filter  only cases whose name (family/variant/label/type) contains TEXT\n"
            "  --worst   how many of the worst steps to list (default 25)\n"
            "  --tsv     every candidate's row: case, size, step, kernel, chosen (1 or 0), rated ns,\n"
            "            measured ns, blocks, lines, pieces, bytes (the cost features it was rated on)\n"
            "            the memory floor in ns (the estimate is the larger of the priced\n"
            "            features and the floor), whether the model counts the kernel's\n"
            "            stores as streamed there (1 or 0), the step's traffic in bytes and the\n"
            "            priced features alone in ns (-1: no profile)\n"
            "  --cpu     the CPU it runs on: the one where an 8 KiB copy runs fastest (default), none\n"
            "            (wherever the scheduler puts it) or CPU N\n"
            "Exits 1 when a case cannot be built or planned, or a step runs a kernel that is not\n"
            "among its shape's candidates.\n");
}

int main(int argc, char **argv) {
    char sizes[128] = ",8KiB,1MiB,";
    const char *filter = NULL, *tsv_path = NULL, *cpu = "fastest";
    unsigned worst = 25;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--sizes=", 8) == 0) snprintf(sizes, sizeof sizes, ",%s,", argv[i] + 8);
        else if (strncmp(argv[i], "--filter=", 9) == 0) filter = argv[i] + 9;
        else if (strncmp(argv[i], "--worst=", 8) == 0) worst = (unsigned)strtoul(argv[i] + 8, NULL, 10);
        else if (strncmp(argv[i], "--tsv=", 6) == 0) tsv_path = argv[i] + 6;
        else if (strncmp(argv[i], "--cpu=", 6) == 0) cpu = argv[i] + 6;
        else {
            usage();
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    char pinned[1024];
    if (bench_cpu_choose(cpu, pinned, sizeof pinned) != 0) {
        fprintf(stderr, "tmv-plan-regret: %s\n", pinned);
        return 2;
    }
    printf("tmv-plan-regret: %s\n", pinned);
    run.sizes = sizes;
    run.zoo = strcmp(sizes, ",zoo,") == 0;
    run.suite = strcmp(sizes, ",suite,") == 0;
    FILE *tsv = tsv_path ? fopen(tsv_path, "w") : NULL;
    biases = calloc(tmv_kernel_count, sizeof *biases);
    if ((tsv_path && !tsv) || !biases) {
        fprintf(stderr, "tmv-plan-regret: %s\n", tsv_path && !tsv ? "cannot write the TSV" : "out of memory");
        return 1;
    }
    if (run.zoo) bench_register_zoo();
    else if (run.suite) register_suite();
    else bench_register_sweep(1);
    for (unsigned i = 0; i < run.count; i++) judge_entry(&run.entries[i], filter, tsv);
    printf("tmv-plan-regret: %u cases of %s, kernel set %s; %u could not be built or planned\n", run.judged,
           run.zoo ? "the model zoo" : run.suite ? "the suite" : "the sweep", tmv_isa_name(tmv_get_isa()), run.failed);
    report(worst);
    if (tsv) fclose(tsv);
    free(biases);
    /* a case the sweep cannot plan, or a plan off the registry's list, is a defect: the test fails */
    return run.failed || run.inconsistent || run.judged == 0 ? 1 : 0;
}
