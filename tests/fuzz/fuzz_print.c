/* fuzz_print.c - a fuzz case in words, for the report of a failing input. */
#include <inttypes.h>

#include "fuzz_case.h"
#include "fuzz_spec.h"

/* Pieces printed at each end of a long JOIN/SPLIT list. */
#define FZ_PRINT_ENDS 6

static void print_array(FILE *f, const uint32_t *a, uint32_t claimed)
{
    if (a == NULL) {
        fputs("NULL", f);
        return;
    }
    fputc('{', f);
    for (uint32_t d = 0; d < claimed && d < TMV_MAX_DIMS; d++)
        fprintf(f, d ? ",%" PRIu32 : "%" PRIu32, a[d]);
    fputc('}', f);
}

static void print_tensor(FILE *f, const char *name, uint32_t k, const tmv_tensor_desc *t)
{
    if (k != UINT32_MAX)
        fprintf(f, "  %s[%" PRIu32 "]: ", name, k);
    else
        fprintf(f, "  %s: ", name);
    if (t == NULL) {
        fputs("NULL\n", f);
        return;
    }
    fprintf(f, "dtype %u dim_count %" PRIu32 " sizes ", (unsigned)t->dtype, t->dim_count);
    print_array(f, t->sizes, t->dim_count);
    fputs(" strides ", f);
    print_array(f, t->strides, t->dim_count);
    fputc('\n', f);
}

static void print_pieces(FILE *f, const char *name, const tmv_tensor_desc *pieces, uint32_t len)
{
    if (pieces == NULL) {
        fprintf(f, "  %s: NULL\n", name);
        return;
    }
    for (uint32_t k = 0; k < len; k++) {
        if (k == FZ_PRINT_ENDS && len > 2 * FZ_PRINT_ENDS) {
            fprintf(f, "  ... %" PRIu32 " more ...\n", len - 2 * FZ_PRINT_ENDS);
            k = len - FZ_PRINT_ENDS;
        }
        print_tensor(f, name, k, &pieces[k]);
    }
}

/* JOIN (whole = output, pieces = inputs) or SPLIT (whole = input, pieces =
 * outputs): the members named as the operator's description names them. */
static void print_join_split(FILE *f, bool split, uint32_t count, uint32_t axis, const tmv_tensor_desc *whole,
                             const tmv_tensor_desc *pieces, uint32_t pieces_len)
{
    fprintf(f, "  %s_count %" PRIu32 " axis %" PRIu32 "\n", split ? "output" : "input", count, axis);
    print_tensor(f, split ? "input" : "output", UINT32_MAX, whole);
    print_pieces(f, split ? "outputs" : "inputs", pieces, pieces_len);
}

void fz_case_print(const fz_case *c, FILE *f)
{
    const void *m = c->member_desc;
    const char *name = fz_spec_op_name((uint32_t)c->kind);
    fprintf(f, "case: %s%s, type %u, flags 0x%" PRIx32 "%s%s\n", name, c->op_arg ? "" : " (passed as NULL)",
            (unsigned)c->op->type, c->op->flags, c->op->desc ? "" : ", desc NULL",
            c->corruption ? "" : ", not corrupted");
    if (c->corruption)
        fprintf(f, "  corrupted: %s\n", c->corruption);
    switch (c->kind) {
    case TMV_OP_JOIN: {
        const tmv_join_desc *j = m;
        print_join_split(f, false, j->input_count, j->axis, j->output, j->inputs, c->pieces_len);
        break;
    }
    case TMV_OP_SPLIT: {
        const tmv_split_desc *s = m;
        print_join_split(f, true, s->output_count, s->axis, s->input, s->outputs, c->pieces_len);
        break;
    }
    case TMV_OP_TILE: {
        const tmv_tile_desc *t = m;
        fprintf(f, "  repeats_count %" PRIu32 " repeats ", t->repeats_count);
        print_array(f, t->repeats, c->repeats_len);
        fputc('\n', f);
        print_tensor(f, "input", UINT32_MAX, t->input);
        print_tensor(f, "output", UINT32_MAX, t->output);
        break;
    }
    case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE: {
        /* The two descriptions have the same members in the same order. */
        const tmv_space_to_depth_desc *s = m;
        fprintf(f, "  block_size %" PRIu32 " order %u\n", s->block_size, (unsigned)s->order);
        print_tensor(f, "input", UINT32_MAX, s->input);
        print_tensor(f, "output", UINT32_MAX, s->output);
        break;
    }
    case TMV_OP_GATHER_ND: {
        const tmv_gather_nd_desc *g = m;
        fprintf(f, "  input_dim_count %" PRIu32 " indices_dim_count %" PRIu32 " batch_dim_count %" PRIu32 "\n",
                g->input_dim_count, g->indices_dim_count, g->batch_dim_count);
        print_tensor(f, "input", UINT32_MAX, g->input);
        print_tensor(f, "indices", UINT32_MAX, g->indices);
        print_tensor(f, "output", UINT32_MAX, g->output);
        break;
    }
    }
    static const char *const binds[] = {"as described", "inputs array NULL", "outputs array NULL",
                                        "an input buffer NULL", "an output buffer NULL",
                                        "an output on an input's buffer", "an output on another output's buffer"};
    fprintf(f, "  execute: %s (a %" PRIu32 ", b %" PRIu32 "), empty tensors bound as %s, bad indices %u%%\n",
            binds[c->bind], c->bind_a, c->bind_b, c->empty_as_null ? "NULL" : "malloc(0)", c->bad_index_percent);
}
