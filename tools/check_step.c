/* check_step.c - running one plan step with a chosen kernel and tuning record, and comparing runs (check_step.h). */
#include "check_step.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"

tmv_primitive ck_step_primitive(const tmv_step *step)
{
    switch (step->kind) {
    case TMV_STEP_COPY: return TMV_PRIMITIVE_COPY;
    case TMV_STEP_JOIN_ROWS: return TMV_PRIMITIVE_JOIN_ROWS;
    case TMV_STEP_SPLIT_ROWS: return TMV_PRIMITIVE_SPLIT_ROWS;
    case TMV_STEP_GATHER: return TMV_PRIMITIVE_GATHER;
    }
    return TMV_PRIMITIVE_COUNT;
}

/* Points the step at this copy's own gather shape. */
static void own_pointers(ck_step *cs)
{
    if (cs->step.kind == TMV_STEP_GATHER)
        cs->step.u.gather.shape = &cs->gather;
}

void ck_step_init(ck_step *cs, const tmv_step *step, const tmv_tuning *tuning, void *state)
{
    memset(cs, 0, sizeof *cs);
    cs->step = *step;
    cs->state = state;
    switch (step->kind) {
    case TMV_STEP_COPY: cs->step.u.copy.shape.tuning = tuning; break;
    case TMV_STEP_JOIN_ROWS: cs->step.u.join_rows.shape.tuning = tuning; break;
    case TMV_STEP_SPLIT_ROWS: cs->step.u.split_rows.shape.tuning = tuning; break;
    case TMV_STEP_GATHER:
        cs->gather = *step->u.gather.shape;
        cs->gather.tuning = cs->gather.slice.tuning = tuning;
        break;
    }
    own_pointers(cs);
}

void ck_step_copy(ck_step *to, const ck_step *from)
{
    *to = *from;
    own_pointers(to);
}

const void *ck_step_shape(const ck_step *cs)
{
    switch (cs->step.kind) {
    case TMV_STEP_COPY: return &cs->step.u.copy.shape;
    case TMV_STEP_JOIN_ROWS: return &cs->step.u.join_rows.shape;
    case TMV_STEP_SPLIT_ROWS: return &cs->step.u.split_rows.shape;
    case TMV_STEP_GATHER: return &cs->gather;
    }
    return NULL;
}

void ck_step_use(ck_step *cs, const tmv_kernel *k, const tmv_kernel *slice)
{
    const void *state = NULL;
    if (tmv_kernel_has_prepare(k)) {
        /* junk first: a kernel reading state its prepare did not write shows */
        for (size_t i = 0; i < TMV_KERNEL_STATE_BYTES; i++)
            ((unsigned char *)cs->state)[i] = (unsigned char)(0x5A ^ i * 13);
        tmv_kernel_prepare(k, ck_step_shape(cs), cs->state);
        state = cs->state;
    }
    tmv_step_use(&cs->step, k);
    cs->step.state = (void *)(uintptr_t)state;
    switch (cs->step.kind) {
    case TMV_STEP_COPY: cs->step.u.copy.shape.state = state; break;
    case TMV_STEP_JOIN_ROWS: cs->step.u.join_rows.shape.state = state; break;
    case TMV_STEP_SPLIT_ROWS: cs->step.u.split_rows.shape.state = state; break;
    case TMV_STEP_GATHER:
        cs->gather.state = state;
        cs->gather.slice_copy = slice->fn.copy.run;
        cs->slice = slice;
        break;
    }
    own_pointers(cs);
}

/* ------------------------------------------------------------ outputs */

cg_outputs *ck_outputs_new(const cg_case *c, bool aligned)
{
    cg_outputs *outs = calloc(1, sizeof *outs);
    if (outs == NULL)
        return NULL;
    cg_rng rng = {c->seed ^ 0xA0761D6478BD642Full};
    outs->count = c->output_count;
    for (uint32_t o = 0; o < c->output_count; o++) {
        const tmv_tensor_desc *t = cg_case_output(c, o);
        cg_region *r = &outs->regions[o];
        /* 64 bytes, or 64 plus 1..7 elements (never a multiple of 64) */
        r->guard = 64 + (aligned ? 0 : cg_dtype_size(t->dtype) * (size_t)(1 + cg_rng_below(&rng, 7)));
        r->len = cg_extent_bytes(t);
        r->map_len = 2 * r->guard + r->len;
        r->map = aligned_alloc(64, (r->map_len + 63) / 64 * 64);
        if (r->map == NULL) {
            cg_outputs_free(outs);
            return NULL;
        }
        for (size_t i = 0; i < r->map_len; i++)
            r->map[i] = cg_canary_byte(i);
        r->data = r->map + r->guard;
        outs->ptrs[o] = r->data;
    }
    return outs;
}

void ck_outputs_reset(cg_outputs *outs, const cg_outputs *pristine)
{
    for (uint32_t o = 0; o < outs->count; o++)
        memcpy(outs->regions[o].map, pristine->regions[o].map, outs->regions[o].map_len);
}

static bool outputs_same(const cg_outputs *a, const cg_outputs *b)
{
    for (uint32_t o = 0; o < a->count; o++)
        if (memcmp(a->regions[o].map, b->regions[o].map, a->regions[o].map_len) != 0)
            return false;
    return true;
}

/* ------------------------------------------------------------ running */

void ck_step_run(const ck_step *cs, const cg_case *c, cg_outputs *outs, const cg_outputs *pristine, ck_run *run)
{
    ck_outputs_reset(outs, pristine);
    run->status = tmv_step_execute(&cs->step, c->in_ptrs, outs->ptrs);
    run->message[0] = '\0';
    if (run->status != TMV_OK)
        snprintf(run->message, sizeof run->message, "%s", tmv_last_error());
}

static void print_mismatch(FILE *f, const char *indent, const char *what, const cg_mismatch *m)
{
    if (f != NULL)
        fprintf(f, "%s%s: outputs[%" PRIu32 "] differs at byte %" PRId64 " (%s): expected 0x%02x, got 0x%02x\n",
                indent, what, m->output, m->offset, m->where, m->expected, m->actual);
}

bool ck_compare(const ck_run *want, const cg_outputs *want_out, const ck_run *got, const cg_outputs *got_out,
                const cg_outputs *pristine, FILE *f, const char *indent)
{
    bool ok = true;
    cg_mismatch m;
    if (want->status != got->status) {
        if (f != NULL)
            fprintf(f, "%sstatus: %s, expected %s%s%s\n", indent, tmv_status_string(got->status),
                    tmv_status_string(want->status), got->message[0] ? " - " : "", got->message);
        ok = false;
    } else if (strcmp(want->message, got->message) != 0) {
        if (f != NULL)
            fprintf(f, "%smessage: \"%s\", expected \"%s\"\n", indent, got->message, want->message);
        ok = false;
    }
    if (!outputs_same(want_out, got_out) && !cg_outputs_equal(want_out, got_out, &m)) {
        print_mismatch(f, indent, "bytes", &m);
        ok = false;
    }
    if (!cg_outputs_guards_intact(got_out, &m)) {
        print_mismatch(f, indent, "guard bands", &m);
        ok = false;
    }
    if (got->status != TMV_OK && !outputs_same(pristine, got_out) && !cg_outputs_equal(pristine, got_out, &m)) {
        print_mismatch(f, indent, "wrote despite failing", &m);
        ok = false;
    }
    return ok;
}

/* ------------------------------------------------------------ printing */

static void print_u64s(FILE *f, const char *name, uint32_t n, const uint64_t *v)
{
    fprintf(f, " %s {", name);
    for (uint32_t d = 0; d < n; d++)
        fprintf(f, d ? ",%" PRIu64 : "%" PRIu64, v[d]);
    fputc('}', f);
}

static void print_copy_shape(FILE *f, const char *indent, const char *what, const tmv_copy_shape *s)
{
    fprintf(f, "%s%s: rank %" PRIu32 ", elem_bytes %" PRIu64 ",", indent, what, s->rank, s->elem_bytes);
    print_u64s(f, "sizes", s->rank, s->sizes);
    print_u64s(f, "src_strides", s->rank, s->src_strides);
    print_u64s(f, "dst_strides", s->rank, s->dst_strides);
    fputc('\n', f);
}

static void print_rows_shape(FILE *f, const char *indent, const tmv_rows_shape *s)
{
    fprintf(f, "%srows shape: %" PRIu64 " rows, joined pitch %" PRIu64 ", joined bytes %" PRIu64 ", %" PRIu32
            " pieces (buffer:bytes@offset/pitch)", indent, s->rows, s->joined_pitch, s->joined_bytes, s->piece_count);
    for (uint32_t p = 0; p < s->piece_count; p++)
        fprintf(f, " %" PRIu32 ":%" PRIu64 "@%" PRIu64 "/%" PRIu64, s->pieces[p].buffer, s->pieces[p].bytes,
                s->pieces[p].offset, s->pieces[p].pitch);
    fputc('\n', f);
}

void ck_step_print_shape(const ck_step *cs, FILE *f, const char *indent)
{
    const tmv_gather_shape *g = &cs->gather;
    switch (cs->step.kind) {
    case TMV_STEP_COPY:
        print_copy_shape(f, indent, "copy shape", &cs->step.u.copy.shape);
        fprintf(f, "%s  from %s[%" PRIu32 "] + %" PRIu64 " to outputs[%" PRIu32 "] + %" PRIu64 "\n", indent,
                cs->step.src_is_output ? "outputs" : "inputs", cs->step.src_buffer, cs->step.src_offset,
                cs->step.dst_buffer, cs->step.dst_offset);
        break;
    case TMV_STEP_JOIN_ROWS: print_rows_shape(f, indent, &cs->step.u.join_rows.shape); break;
    case TMV_STEP_SPLIT_ROWS: print_rows_shape(f, indent, &cs->step.u.split_rows.shape); break;
    case TMV_STEP_GATHER:
        fprintf(f, "%sgather shape: pos_rank %" PRIu32 ",", indent, g->pos_rank);
        print_u64s(f, "pos_sizes", g->pos_rank, g->pos_sizes);
        print_u64s(f, "index_strides", g->pos_rank, g->pos_index_strides);
        print_u64s(f, "input_strides", g->pos_rank, g->pos_input_strides);
        print_u64s(f, "output_strides", g->pos_rank, g->pos_output_strides);
        fprintf(f, "; k %" PRIu32 ", index %s, stride %" PRIu64 ",", g->k, cg_dtype_name(g->index_type),
                g->index_stride);
        print_u64s(f, "dim_sizes", g->k, g->dim_sizes);
        print_u64s(f, "dim_strides", g->k, g->dim_strides);
        fprintf(f, "%s\n", g->clamp ? ", clamp" : "");
        print_copy_shape(f, indent, "  slice", &g->slice);
        if (cs->slice != NULL)
            fprintf(f, "%s  slice copy: %s\n", indent, cs->slice->name);
        break;
    }
}
