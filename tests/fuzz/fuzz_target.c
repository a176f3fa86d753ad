/* fuzz_target.c - tmv-fuzz, the libFuzzer differential target.
 *
 * For each input: decode a description (fuzz_decode.c), judge it with the
 * independent reading of SPEC.md (fuzz_spec.c), then on every kernel set
 * this CPU has create the operator, demand the same status from every set and
 * the one the SPEC fixes, and when it is created execute it on exact-size
 * buffers (fuzz_buffers.c) and compare every output byte and the status with
 * the reference (src/reference), and that nothing is written on an error.
 * Any disagreement prints the case and aborts, which libFuzzer reports. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_buffers.h"
#include "fuzz_case.h"
#include "fuzz_spec.h"
#include "reference/reference.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_SETS 32

static tmv_isa sets[FZ_MAX_SETS];
static uint32_t set_count;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* The fuzzer's tensors are small: let the kernels' streaming-store paths
     * start at 4 KiB, as tmv-verify does, so that they are fuzzed too. */
    setenv("TENSORMOVE_STREAM_THRESHOLD", "4096", 0);
    set_count = tmv_isa_list(sets, FZ_MAX_SETS);
    if (set_count > FZ_MAX_SETS)
        set_count = FZ_MAX_SETS;
    return 0;
}

__attribute__((format(printf, 3, 4), noreturn)) static void fail(const fz_case *c, tmv_isa isa, const char *fmt,
                                                                 ...)
{
    va_list ap;
    fprintf(stderr, "\ntmv-fuzz: FAILED (kernel set %s): ", tmv_isa_name(isa));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ntmv-fuzz: the library's last error: \"%s\"\n", tmv_last_error());
    fz_case_print(c, stderr);
    abort();
}

/* The first set's create status against SPEC.md's verdict: OK when it
 * accepts, else TMV_ERR_INVALID_ARGUMENT (the only create error SPEC 1.10
 * gives a description) with a message naming the operator (SPEC 7). */
static void check_verdict(const fz_case *c, bool accepts, const char *why, tmv_status st, tmv_isa isa)
{
    if (accepts && st != TMV_OK)
        fail(c, isa, "SPEC.md accepts the description but tmv_op_create returned %s", tmv_status_string(st));
    if (accepts)
        return;
    if (st != TMV_ERR_INVALID_ARGUMENT)
        fail(c, isa, "SPEC.md rejects the description (%s) but tmv_op_create returned %s", why,
             tmv_status_string(st));
    const char *name = c->op_arg ? fz_spec_op_name((uint32_t)c->op->type) : NULL;
    if (tmv_last_error()[0] == '\0' || (name != NULL && strstr(tmv_last_error(), name) == NULL))
        fail(c, isa, "rejected (%s) with a message that does not name the operator", why);
}

/* Binds the buffers as the case says and returns the status execute must
 * give: a corrupted binding's (SPEC 1.10 steps 1 to 3) when it applies, else
 * the reference's. `aliased` gets the output bound to another's buffer. */
static tmv_status bind(const fz_case *c, const fz_buffers *b, tmv_status ref, const void ***ins, void ***outs,
                       uint32_t *aliased)
{
    const uint32_t a = c->bind_a, z = c->bind_b;
    const uint32_t oi = a % b->out_count, ii = a % b->in_count;
    *aliased = UINT32_MAX;
    switch (c->bind) {
    case FZ_BIND_OK:
        return ref;
    case FZ_BIND_NULL_INPUTS:
        *ins = NULL;
        return TMV_ERR_INVALID_ARGUMENT;
    case FZ_BIND_NULL_OUTPUTS:
        *outs = NULL;
        return TMV_ERR_INVALID_ARGUMENT;
    case FZ_BIND_NULL_INPUT:
        (*ins)[ii] = NULL;
        return b->in_len[ii] > 0 ? TMV_ERR_INVALID_ARGUMENT : ref; /* SPEC 1.6: empty may be NULL */
    case FZ_BIND_NULL_OUTPUT:
        (*outs)[oi] = NULL;
        return b->out_len[oi] > 0 ? TMV_ERR_INVALID_ARGUMENT : ref;
    case FZ_BIND_ALIAS_INPUT: {
        const uint32_t i = z % b->in_count;
        if (b->out_len[oi] == 0 || b->in_len[i] == 0)
            return ref; /* SPEC 1.11: an empty extent overlaps nothing */
        (*outs)[oi] = b->in[i];
        *aliased = oi;
        return TMV_ERR_OVERLAP;
    }
    case FZ_BIND_ALIAS_OUTPUT: {
        const uint32_t p = z % b->out_count;
        if (p == oi || b->out_len[oi] == 0 || b->out_len[p] == 0)
            return ref;
        (*outs)[oi] = b->out[p];
        *aliased = oi;
        return TMV_ERR_OVERLAP;
    }
    }
    abort();
}

/* A pool that runs the tasks on the calling thread, last first: with the
 * stage's small TENSORMOVE_TASK_MIN_BYTES the fuzzed cases split into tasks,
 * and any task that relied on another's order would show. */
static void reverse_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    (void)pool;
    for (size_t i = count; i-- > 0;)
        task(context, i);
}

static const tmv_parallel reverse_pool = {NULL, 5, reverse_parallelize};

/* The ways a case is run: its op, its op on the reversed pool, and its
 * description through tmv_execute (which keeps operators by contents). */
typedef enum run_mode { RUN_OP, RUN_PARALLEL, RUN_ONE_SHOT } run_mode;
static const char *const run_names[] = {"tmv_op_execute", "tmv_op_execute_parallel", "tmv_execute"};

/* Runs the case on fresh canaries as `mode` says and checks status, inputs
 * and outputs. */
static void check_execute(const fz_case *c, const tmv_op *op, fz_buffers *b, tmv_status ref, tmv_isa isa,
                          run_mode mode)
{
    const void **in_ptrs = calloc(b->in_count, sizeof *in_ptrs), **ins = in_ptrs;
    void **out_ptrs = calloc(b->out_count, sizeof *out_ptrs), **outs = out_ptrs;
    uint32_t aliased, which;
    uint64_t offset;
    if (in_ptrs == NULL || out_ptrs == NULL)
        abort();
    for (uint32_t i = 0; i < b->in_count; i++)
        in_ptrs[i] = b->in[i];
    for (uint32_t o = 0; o < b->out_count; o++)
        out_ptrs[o] = b->out[o];
    fz_buffers_canary(b);
    const tmv_status want = bind(c, b, ref, &ins, &outs, &aliased);
    const char *what = run_names[mode];
    const tmv_status got = mode == RUN_OP         ? tmv_op_execute(op, ins, outs)
                           : mode == RUN_PARALLEL ? tmv_op_execute_parallel(op, ins, outs, &reverse_pool)
                                                  : tmv_execute(c->op_arg, ins, outs);
    if (got != want)
        fail(c, isa, "%s returned %s, expected %s (reference: %s)", what, tmv_status_string(got),
             tmv_status_string(want), tmv_status_string(ref));
    if (!fz_buffers_inputs_intact(b, &which, &offset))
        fail(c, isa, "%s changed inputs[%u] at byte %llu", what, which, (unsigned long long)offset);
    for (uint32_t o = 0; o < b->out_count; o++)
        if (o != aliased && !fz_buffers_output_matches(b, o, got == TMV_OK, &offset))
            fail(c, isa, got == TMV_OK ? "%s: outputs[%u] differs from the reference at byte %llu"
                                       : "%s: outputs[%u] written at byte %llu although execute failed",
                 what, o, (unsigned long long)offset);
    free(in_ptrs);
    free(out_ptrs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char not_an_op; /* *out must be set to NULL on failure (SPEC 1.10) */
    fz_case *c = fz_decode(data, size);
    char why[320] = "";
    const bool accepts = fz_spec_accepts(c->op_arg, why, sizeof why);
    const tmv_isa saved = tmv_get_isa();
    fz_buffers *b = NULL;
    tmv_status first = TMV_OK, ref = TMV_OK;
    for (uint32_t s = 0; s < set_count; s++) {
        tmv_op *op = (tmv_op *)(void *)&not_an_op;
        if (tmv_set_isa(sets[s]) != TMV_OK)
            fail(c, sets[s], "tmv_set_isa refused a set tmv_isa_list gave");
        const tmv_status st = tmv_op_create(c->op_arg, &op);
        if (s == 0)
            check_verdict(c, accepts, why, first = st, sets[s]);
        else if (st != first)
            fail(c, sets[s], "tmv_op_create returned %s, but %s with kernel set %s", tmv_status_string(st),
                 tmv_status_string(first), tmv_isa_name(sets[0]));
        if (st != TMV_OK) {
            if (op != NULL)
                fail(c, sets[s], "tmv_op_create failed but left *out not NULL");
            const tmv_status one_shot = tmv_execute(c->op_arg, NULL, NULL);
            if (one_shot != st)
                fail(c, sets[s], "tmv_execute returned %s where tmv_op_create returned %s",
                     tmv_status_string(one_shot), tmv_status_string(st));
            continue;
        }
        /* The reference runs once, on the first set's op: it reads only the
         * op's validated tensors and members, never its plan. */
        if (s == 0 && (b = fz_buffers_new(c)) != NULL)
            ref = tmv_reference_execute(op, (const void *const *)b->in, (void *const *)b->ref);
        if (b != NULL) {
            check_execute(c, op, b, ref, sets[s], RUN_OP);
            check_execute(c, op, b, ref, sets[s], RUN_PARALLEL);
            check_execute(c, op, b, ref, sets[s], RUN_ONE_SHOT);
        }
        tmv_op_destroy(op);
    }
    if (tmv_set_isa(saved) != TMV_OK)
        fail(c, saved, "tmv_set_isa refused to restore the set it started with");
    fz_buffers_free(b);
    fz_case_free(c);
    return 0;
}
