/* check_case.c - every selected kernel on every step of one case, against the portable kernels (check_case.h). */
#include "check_case.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_calibrate.h"
#include "check_fault.h"
#include "check_seed.h"
#include "check_step.h"
#include "copy_kinds.h"
#include "cpu_pin.h"
#include "kernel_sets.h"
#include "op.h"

const ck_record ck_records[CK_RECORDS] = {
    {"stream", {1, TMV_GATHER_PREFETCH_MAX, TMV_TASK_MIN_BYTES_DEFAULT, {0, 0, 0}, NULL}},
    {"no-stream", {UINT64_MAX, 0, TMV_TASK_MIN_BYTES_DEFAULT, {0, 0, 0}, NULL}},
    {"tiny-cache", {UINT64_MAX, 0, TMV_TASK_MIN_BYTES_DEFAULT, {256, 2048, 16384}, NULL}},
};

/* The references one step and record needs: (kernel, slice kernel) pairs
 * and their results, each run once. Three at most: the scalar set's pick,
 * the catch-all, and the portable gather with the catch-all slice copy. */
#define MAX_REFS 3

typedef struct checker {
    ck_context      *ctx;
    const cg_case   *c;
    const tmv_op    *op;
    uint64_t         seed;
    const tmv_step  *step;
    uint32_t         step_index;
    unsigned         rec;
    cg_outputs      *pristine, *work, *ref_out[MAX_REFS];
    struct { const tmv_kernel *k, *slice; ck_run run; } refs[MAX_REFS];
    unsigned         ref_count;
    void            *state;
    ck_inputs       *bench_inputs;   /* made at the first timing */
    bool             no_bench;       /* they could not be made: time nothing here */
} checker;

/* The portable catch-all of a primitive: its last row (registry.inc). */
static const tmv_kernel *catch_all(tmv_primitive p)
{
    const tmv_kernel *last = NULL;
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (tmv_kernels[i].primitive == p)
            last = &tmv_kernels[i];
    return last;
}

/* The kernel the planner would take for a shape of step primitive p (COPY
 * for any copy shape) under set `isa`. */
static const tmv_kernel *pick_for(tmv_primitive p, tmv_isa isa, const void *shape)
{
    return p == TMV_PRIMITIVE_COPY ? tmv_pick_copy(isa, shape) : tmv_pick(p, isa, shape);
}

/* Whether k serves a step of primitive p with this shape: a kernel of the
 * copy family whose primitive the copy shape is, or a kernel of p. */
static bool serves(const tmv_kernel *k, tmv_primitive p, const void *shape)
{
    if (p == TMV_PRIMITIVE_COPY)
        return tmv_primitive_copies(k->primitive) && (tmv_copy_primitives(shape) >> k->primitive & 1u);
    return k->primitive == p;
}

/* The portable kernel to hold k to on this shape: the scalar set's pick, or
 * the catch-all when k is that pick (k itself when it is both). */
static const tmv_kernel *reference_for(const tmv_kernel *k, tmv_primitive p, const void *shape)
{
    const tmv_kernel *pick = pick_for(p, TMV_ISA_SCALAR, shape);
    return pick != k ? pick : catch_all(p);
}

static void running(const checker *ck, const tmv_kernel *k)
{
    ck_fault_running(k ? k->name : NULL, ck_records[ck->rec].name, ck->seed, ck->step_index);
}

/* The index of the run of base with (k, slice): cached, or run now. */
static unsigned reference_run(checker *ck, const ck_step *base, const tmv_kernel *k, const tmv_kernel *slice)
{
    for (unsigned i = 0; i < ck->ref_count; i++)
        if (ck->refs[i].k == k && ck->refs[i].slice == slice)
            return i;
    const unsigned i = ck->ref_count < MAX_REFS ? ck->ref_count++ : MAX_REFS - 1;
    ck_step s;
    ck_step_copy(&s, base);
    ck_step_use(&s, k, slice);
    ck->refs[i].k = k;
    ck->refs[i].slice = slice;
    running(ck, k);
    ck_step_run(&s, ck->c, ck->ref_out[i], ck->pristine, &ck->refs[i].run);
    running(ck, NULL);
    return i;
}

static void report_failure(checker *ck, const tmv_kernel *counted, const ck_step *got, const ck_run *run,
                           unsigned ref)
{
    char name[96];
    printf("FAIL %s [%s] on %s case 0x%016" PRIx64 ", step %" PRIu32 " of \"%s\"\n", counted->name,
           ck_records[ck->rec].name, ck_case_name(ck->c, ck->seed, name, sizeof name), ck->seed, ck->step_index,
           tmv_op_describe(ck->op));
    if (ck->ctx->reports++ < ck->ctx->full_reports) {
        if (got->step.kind == TMV_STEP_GATHER)
            printf("  %s (slices by %s) against %s (slices by %s):\n", got->step.kernel->name, got->slice->name,
                   ck->refs[ref].k->name, ck->refs[ref].slice->name);
        else
            printf("  against %s:\n", ck->refs[ref].k->name);
        ck_compare(&ck->refs[ref].run, ck->ref_out[ref], run, ck->work, ck->pristine, stdout, "    ");
        ck_step_print_shape(got, stdout, "  ");
        cg_case_print(ck->c, stdout, "  ");
    }
    printf("  reproduce: tmv-check-kernels --kernel %s --case 0x%016" PRIx64 "\n", counted->name, ck->seed);
}

/* --bench times a kernel against the portable kernel it is held to (not
 * itself) under the no-stream record, and under the stream record only
 * shapes no-stream does not take (the stream kernels'): non-temporal stores
 * into small outputs are slow by design. */
static bool bench_takes(const checker *ck, const tmv_kernel *counted, const ck_step *got, const tmv_kernel *ref_k)
{
    if (got->step.kernel == ref_k || ck->rec == 2)
        return false;
    if (ck->rec == 0) {
        ck_step other;
        ck_step_init(&other, ck->step, &ck_records[1].tuning, ck->state);
        return !tmv_kernel_accepts(counted, ck_step_shape(&other));
    }
    return true;
}

/* --calibrate times a kernel under the no-stream record only: the profiles
 * price work in cache, which streaming stores skip (so the stream kernels,
 * which take shapes only under the stream record, get no profile), and only
 * on shapes with cost features (*f, the kernel's own where it is priced; a
 * gather step's have none). Kernels of
 * an emulated set (neon-simde) get none either: their times here say how
 * fast SIMDe emulates NEON, not how fast NEON runs, and pricing them would
 * plan the emulation away from the NEON kernels it exists to test. */
static bool calibration_takes(const checker *ck, const ck_kernel_stats *st, const tmv_kernel *k,
                              const ck_step *base, tmv_cost_features *f)
{
    const tmv_primitive p = ck_step_primitive(ck->step);   /* k may be a gather step's slice copy */
    const bool own_step = tmv_primitive_copies(p) ? tmv_primitive_copies(k->primitive) : p == k->primitive;
    return st->bench.calibration != NULL && ck->rec == 1 && !tmv_kernel_set_of(k->set)->emulated && own_step &&
           tmv_cost_kernel_features(k, ck_step_shape(base), f);
}

/* --bench and --calibrate: times got on base when the kernel's bench or
 * calibration sample takes the shape, and the portable kernel (ref_k,
 * ref_slice) on it too when the bench sample does. */
static void bench_one(checker *ck, const ck_step *base, const tmv_kernel *counted, ck_step *got,
                      const tmv_kernel *ref_k, const tmv_kernel *ref_slice)
{
    ck_kernel_stats *st = &ck->ctx->stats[counted - tmv_kernels];
    cg_rng *rng = &ck->ctx->bench_rng;
    unsigned slot, calibration_slot;
    tmv_cost_features f;
    if (ck->no_bench)
        return;
    const bool bench = bench_takes(ck, counted, got, ref_k) && ck_bench_offer(&st->bench, rng, &slot);
    const bool calibrate = calibration_takes(ck, st, counted, base, &f) &&
                           ck_reservoir_offer(&st->bench.calibration->sample, CK_CALIBRATION_SHAPES, rng,
                                              &calibration_slot);
    if (!bench && !calibrate)
        return;
    if (ck->bench_inputs == NULL && (ck->bench_inputs = ck_inputs_new(ck->c)) == NULL) {
        ck->no_bench = true;
        return;
    }
    double portable_ns = 0;
    bench_cpu_pin(1);   /* both timings on the CPU that is fastest now (bench/cpu_pin.h) */
    if (bench) {
        ck_step portable;
        ck_step_copy(&portable, base);
        ck_step_use(&portable, ref_k, ref_slice);
        running(ck, ref_k);
        portable_ns = ck_step_time(&portable, ck->bench_inputs->ptrs, ck->work);
        ck_step_use(got, got->step.kernel, got->slice); /* its state again: the portable's prepare used the block */
    }
    running(ck, counted);
    const double ns = ck_step_time(got, ck->bench_inputs->ptrs, ck->work);
    running(ck, NULL);
    if (bench)
        ck_bench_put(&st->bench, slot, ns, portable_ns);
    if (calibrate)
        ck_calibration_put(st->bench.calibration, calibration_slot, f, ns);
    if (ck->ctx->verbose && bench)
        printf("    bench %s: %.1f ns, %s: %.1f ns\n", counted->name, ns, ref_k->name, portable_ns);
    else if (ck->ctx->verbose)
        printf("    bench %s: %.1f ns\n", counted->name, ns);
}

/* A gather kernel's check alone (what a parallel execute runs over each
 * task's tuples first) must say what the reference's status says, and its
 * run with `checked` set (each task's copy pass then) must write what the
 * reference wrote. */
static void check_gather_check(checker *ck, const tmv_kernel *counted, ck_step *got, unsigned ref)
{
    ck_kernel_stats *st = &ck->ctx->stats[counted - tmv_kernels];
    const bool want = ck->refs[ref].run.status == TMV_OK;
    running(ck, counted);
    const bool in_range = counted->fn.gather.check(&got->gather, ck->c->in_ptrs[1]);
    running(ck, NULL);
    st->checks++;
    if (in_range != want) {
        char name[96];
        st->failed++;
        printf("FAIL %s [%s] on %s case 0x%016" PRIx64 ": its check says the indices are %s, the reference %s\n",
               counted->name, ck_records[ck->rec].name, ck_case_name(ck->c, ck->seed, name, sizeof name), ck->seed,
               in_range ? "in range" : "out of range", want ? "ran" : "failed");
        printf("  reproduce: tmv-check-kernels --kernel %s --case 0x%016" PRIx64 "\n", counted->name, ck->seed);
        return;
    }
    if (!want)
        return;
    ck_run run;
    got->gather.checked = true;
    running(ck, counted);
    ck_step_run(got, ck->c, ck->work, ck->pristine, &run);
    running(ck, NULL);
    got->gather.checked = false;
    st->checks++;
    if (!ck_compare(&ck->refs[ref].run, ck->ref_out[ref], &run, ck->work, ck->pristine, NULL, "")) {
        st->failed++;
        report_failure(ck, counted, got, &run, ref);
    }
}

/* Runs base with (k, slice), holds it to (ref_k, ref_slice), counts it for `counted`. */
static void check_one(checker *ck, const ck_step *base, const tmv_kernel *counted, const tmv_kernel *k,
                      const tmv_kernel *slice, const tmv_kernel *ref_k, const tmv_kernel *ref_slice)
{
    ck_kernel_stats *st = &ck->ctx->stats[counted - tmv_kernels];
    st->accepted[ck->rec]++;
    if (st->last_case != ck->ctx->cases) {
        st->last_case = ck->ctx->cases;
        st->cases++;
    }
    const unsigned ref = reference_run(ck, base, ref_k, ref_slice);
    ck_step got;
    ck_step_copy(&got, base);
    ck_step_use(&got, k, slice);
    ck_run run;
    running(ck, counted);
    ck_step_run(&got, ck->c, ck->work, ck->pristine, &run);
    running(ck, NULL);
    st->checks++;
    if (!ck_compare(&ck->refs[ref].run, ck->ref_out[ref], &run, ck->work, ck->pristine, NULL, "")) {
        st->failed++;
        report_failure(ck, counted, &got, &run, ref);
    }
    if (k == counted && k->primitive == TMV_PRIMITIVE_GATHER)
        check_gather_check(ck, counted, &got, ref);
    if (ck->ctx->verbose)
        printf("    step %" PRIu32 " [%s]: %s%s%s\n", ck->step_index, ck_records[ck->rec].name, counted->name,
               k != counted ? " as the slice copy of " : "", k != counted ? k->name : "");
    if (ck->ctx->bench && run.status == TMV_OK)
        bench_one(ck, base, counted, &got, ref_k, ref_slice);
}

/* Every selected kernel of the step's primitive that accepts its shape under
 * the current record; for GATHER also every selected copy kernel that
 * accepts its slice shape, as the portable gather's slice copy. */
static void check_step(checker *ck)
{
    ck_step base;
    ck_step_init(&base, ck->step, &ck_records[ck->rec].tuning, ck->state);
    const tmv_primitive p = ck_step_primitive(ck->step);
    const void *shape = ck_step_shape(&base);
    const bool gather = p == TMV_PRIMITIVE_GATHER;
    const tmv_kernel *slice_pick = gather ? tmv_pick_copy_stateless(TMV_ISA_SCALAR, &base.gather.slice) : NULL;
    ck->ref_count = 0;
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        if (!serves(k, p, shape) || !ck->ctx->stats[i].selected || !tmv_kernel_accepts(k, shape))
            continue;
        /* a gather kernel of set S copies slices with what S picks, as a plan under S would */
        const tmv_kernel *slice = gather ? tmv_pick_copy_stateless(k->set, &base.gather.slice) : NULL;
        check_one(ck, &base, k, k, slice, reference_for(k, p, shape), slice_pick);
    }
    if (!gather)
        return;
    const tmv_kernel *portable = tmv_pick(p, TMV_ISA_SCALAR, shape);
    bool any = false;
    for (unsigned i = 0; i < tmv_kernel_count && !any; i++)
        any = serves(&tmv_kernels[i], TMV_PRIMITIVE_COPY, &base.gather.slice) && ck->ctx->stats[i].selected;
    if (!any || ck->refs[reference_run(ck, &base, portable, slice_pick)].run.status != TMV_OK)
        return; /* bad indices: the gather fails before it copies a slice */
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        if (!serves(k, TMV_PRIMITIVE_COPY, &base.gather.slice) || !ck->ctx->stats[i].selected ||
            !tmv_kernel_accepts(k, &base.gather.slice))
            continue;
        check_one(ck, &base, k, portable, k, portable, reference_for(k, TMV_PRIMITIVE_COPY, &base.gather.slice));
    }
}

/* Output areas and the state block; false when out of memory. */
static bool set_up(checker *ck)
{
    const bool aligned = ck_case_aligned(ck->seed);
    ck->pristine = ck_outputs_new(ck->c, aligned);
    ck->work = ck_outputs_new(ck->c, aligned);
    bool ok = ck->pristine != NULL && ck->work != NULL;
    for (unsigned i = 0; i < MAX_REFS; i++)
        ok &= (ck->ref_out[i] = ck_outputs_new(ck->c, aligned)) != NULL;
    ck->state = aligned_alloc(64, TMV_KERNEL_STATE_BYTES);
    return ok && ck->state != NULL;
}

static void tear_down(checker *ck)
{
    free(ck->state);
    ck_inputs_free(ck->bench_inputs);
    cg_outputs_free(ck->pristine);
    cg_outputs_free(ck->work);
    for (unsigned i = 0; i < MAX_REFS; i++)
        cg_outputs_free(ck->ref_out[i]);
}

/* The set the library plans under when TENSORMOVE_ISA does not cap it: the
 * highest one this CPU runs that is not emulated. */
static tmv_isa default_set(void)
{
    tmv_isa list[64];
    const uint32_t n = tmv_isa_list(list, 64);
    const tmv_kernel_set *best = tmv_kernel_set_of(TMV_ISA_SCALAR);
    for (uint32_t i = 0; i < n && i < 64; i++) {
        const tmv_kernel_set *set = tmv_kernel_set_of(list[i]);
        if (!set->emulated && set->rank > best->rank)
            best = set;
    }
    return best->isa;
}

/* Every step of the case planned under set `isa`, under each record; false
 * (reported) when the operator could not be created. */
static bool check_plan(checker *ck, tmv_isa isa)
{
    char name[96];
    tmv_op *op = NULL;
    if (tmv_op_create_for(&ck->c->op, isa, &op) != TMV_OK) {
        printf("FAIL: tmv_op_create under %s failed on valid case 0x%016" PRIx64 ": %s\n", tmv_isa_name(isa),
               ck->seed, tmv_last_error());
        cg_case_print(ck->c, stdout, "  ");
        return false;
    }
    ck->op = op;
    if (ck->ctx->verbose) {
        printf("  case 0x%016" PRIx64 " %s, outputs %s, planned under %s: %s\n", ck->seed,
               ck_case_name(ck->c, ck->seed, name, sizeof name),
               ck_case_aligned(ck->seed) ? "on 64-byte lines" : "off 64-byte lines", tmv_isa_name(isa),
               tmv_op_describe(op));
        cg_case_print(ck->c, stdout, "    ");
    }
    for (ck->step_index = 0; ck->step_index < op->step_count; ck->step_index++) {
        ck->step = &op->steps[ck->step_index];
        for (ck->rec = 0; ck->rec < CK_RECORDS; ck->rec++)
            check_step(ck);
    }
    ck->op = NULL;
    tmv_op_destroy(op);
    return true;
}

bool ck_check_case(ck_context *ctx, uint64_t seed)
{
    cg_case *c = ck_case_new(seed);
    checker ck = {.ctx = ctx, .c = c, .seed = seed};
    bool ok = false;
    if (c == NULL) {
        printf("FAIL: case 0x%016" PRIx64 " names no case, or it could not be built (out of memory)\n", seed);
    } else if (!set_up(&ck)) {
        printf("FAIL: out of memory setting up case 0x%016" PRIx64 "\n", seed);
    } else {
        /* Plans depend on the set (the cost model prices its kernels), and a
         * plan under a capped set may never make the steps that another
         * set's kernels serve: a case is also planned under the default set
         * when TENSORMOVE_ISA caps the library below it. */
        const tmv_isa capped = tmv_get_isa(), best = default_set();
        ok = check_plan(&ck, capped) && (capped == best || check_plan(&ck, best));
        ctx->cases += ok;
    }
    tear_down(&ck);
    cg_case_free(c);
    ctx->broken += !ok;
    return ok;
}
