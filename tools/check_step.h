/* check_step.h - one step of a plan, run with any kernel of its primitive
 * under any tuning record into canary-banded output areas, and two such
 * runs compared: the machinery of tmv-check-kernels. */
#ifndef TMV_CHECK_STEP_H
#define TMV_CHECK_STEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "casegen.h"
#include "kernels.h"
#include "op.h"

/* The primitive a step runs. */
tmv_primitive ck_step_primitive(const tmv_step *step);

/* A copy of a plan's step that runs a kernel of our choosing: its shape (a
 * GATHER step's too, held here) points at our tuning record, and prepared
 * kernels get their state in a block of ours. Copy with ck_step_copy. */
typedef struct ck_step {
    tmv_step          step;
    tmv_gather_shape  gather;   /* GATHER: the shape step.u.gather.shape points to */
    void             *state;    /* TMV_KERNEL_STATE_BYTES, 64-byte aligned */
    const tmv_kernel *slice;    /* GATHER: the kernel behind gather.slice_copy */
} ck_step;

/* *cs = step with every tuning pointer (and a GATHER slice's) at `tuning`,
 * kernels to be prepared into `state`. The step keeps its kernel until
 * ck_step_use. */
void ck_step_init(ck_step *cs, const tmv_step *step, const tmv_tuning *tuning, void *state);
/* *to = *from, with the internal pointers moved to *to. */
void ck_step_copy(ck_step *to, const ck_step *from);
/* The shape the kernels of the step's primitive take (for accepts). */
const void *ck_step_shape(const ck_step *cs);
/* Prints the step's shape (the primitive's shape members), each line
 * starting with indent. */
void ck_step_print_shape(const ck_step *cs, FILE *f, const char *indent);
/* Makes cs run kernel k (of its primitive): k's run function and, if k has
 * a prepare, a state block filled with junk and then prepared. A GATHER
 * step's slices are copied with `slice` (a copy kernel that accepts its
 * slice shape); other steps ignore it. */
void ck_step_use(ck_step *cs, const tmv_kernel *k, const tmv_kernel *slice);

/* ---- output areas ----
 * Like casegen's (cg_outputs_new): each output's extent between guard bands,
 * all of it canary bytes, but the extent either starts on a 64-byte line
 * (so the kernels' streaming and aligned paths run) or a few elements past
 * one, as `aligned` says. Free with cg_outputs_free. */
cg_outputs *ck_outputs_new(const cg_case *c, bool aligned);
/* Makes every byte of outs what it is in pristine (made for the same case). */
void ck_outputs_reset(cg_outputs *outs, const cg_outputs *pristine);

/* ---- running and comparing ---- */
typedef struct ck_run {
    tmv_status status;
    char       message[256];   /* tmv_last_error() when status is not TMV_OK */
} ck_run;

/* Resets outs from pristine and executes cs on c's inputs into it. */
void ck_step_run(const ck_step *cs, const cg_case *c, cg_outputs *outs, const cg_outputs *pristine, ck_run *run);

/* True when `got` matches `want`: the same status (and the same message when
 * both fail), every byte of the areas (extents, gaps, guard bands) equal,
 * the guard bands intact, and nothing written when failing. Otherwise
 * prints to f (if not NULL) one line per difference, each starting with
 * `indent`. */
bool ck_compare(const ck_run *want, const cg_outputs *want_out, const ck_run *got, const cg_outputs *got_out,
                const cg_outputs *pristine, FILE *f, const char *indent);

#endif
