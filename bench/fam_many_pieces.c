/* fam_many_pieces.c - JOIN and SPLIT of 100,000 pieces: the time of tmv_op_create and of tmv_op_execute.
 *
 * Not cases of the table (cases.c): a bench_setup holds a dozen tensors, and
 * these time create as well as execute. Layouts, u8:
 *   packed   {n} <-> n pieces {1}: one byte each, the row-wise plan (one step);
 *   strided  {2, n} with strides {1, 2} <-> n pieces {2, 1}: one copy step per piece.
 * The pieces' buffers lie back to back in one allocation, bound in ascending
 * address order, except for "shuffled", which binds SPLIT's outputs in a
 * random order (the overlap check then sorts them).
 * Named many_pieces/<op>-<create|execute>/<layout>/u8/100k/<kernel set>.
 * create: time per tmv_op_create + tmv_op_destroy. execute: time per
 * tmv_op_execute of an op created once; bytes read = bytes written = the
 * pieces' bytes; x_memcpy against one memcpy of those bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bench.h"
#include "cases.h"

#define PIECES 100000u

enum many_layout { PACKED, STRIDED, SHUFFLED };
static const char *const layout_names[] = {"packed", "strided", "shuffled"};

typedef struct many_case {
    const char *variant;   /* "split-execute" */
    enum many_layout layout;
    int join, execute;
} many_case;

static const many_case many_cases[] = {
    {"split-create", PACKED, 0, 0},   {"split-create", STRIDED, 0, 0},
    {"split-execute", PACKED, 0, 1},  {"split-execute", STRIDED, 0, 1},
    {"split-execute", SHUFFLED, 0, 1},
    {"join-create", PACKED, 1, 0},    {"join-create", STRIDED, 1, 0},
    {"join-execute", PACKED, 1, 1},   {"join-execute", STRIDED, 1, 1},
};

static int is_strided(const many_case *c) { return c->layout == STRIDED; }

static tmv_isa many_isa;   /* the default kernel set, captured at registration */

/* Descriptions and buffers of one case (many_build fills, many_free frees). */
typedef struct many_setup {
    uint32_t whole_sizes[2], whole_strides[2], piece_sizes[2];
    tmv_tensor_desc whole, *pieces;
    tmv_op_desc op;
    tmv_join_desc join;
    tmv_split_desc split;
    unsigned char *whole_buf, *piece_buf;
    const void **in;
    void **out;
} many_setup;

static void many_free(many_setup *m) {
    free(m->pieces);
    free(m->whole_buf);
    free(m->piece_buf);
    free(m->in);
    free(m->out);
}

static int many_build(const many_case *c, many_setup *m) {
    const uint32_t n = PIECES, piece_bytes = is_strided(c) ? 2 : 1;
    memset(m, 0, sizeof *m);
    if (is_strided(c)) {
        m->whole_sizes[0] = 2, m->whole_sizes[1] = n;
        m->whole_strides[0] = 1, m->whole_strides[1] = 2;
        m->piece_sizes[0] = 2, m->piece_sizes[1] = 1;
        m->whole = (tmv_tensor_desc){TMV_DTYPE_UINT8, 2, m->whole_sizes, m->whole_strides};
    } else {
        m->whole_sizes[0] = n;
        m->piece_sizes[0] = 1;
        m->whole = (tmv_tensor_desc){TMV_DTYPE_UINT8, 1, m->whole_sizes, NULL};
    }
    m->pieces = malloc(n * sizeof *m->pieces);
    m->whole_buf = malloc((size_t)n * piece_bytes);
    m->piece_buf = malloc((size_t)n * piece_bytes);
    m->in = malloc((c->join ? n : 1) * sizeof *m->in);
    m->out = malloc((c->join ? 1 : n) * sizeof *m->out);
    if (!m->pieces || !m->whole_buf || !m->piece_buf || !m->in || !m->out) {
        many_free(m);
        return -1;
    }
    for (size_t i = 0; i < (size_t)n * piece_bytes; ++i) {
        m->whole_buf[i] = (unsigned char)(i * 131u + 7u);
        m->piece_buf[i] = (unsigned char)(i * 71u + 3u);
    }
    for (uint32_t k = 0; k < n; ++k)
        m->pieces[k] = (tmv_tensor_desc){TMV_DTYPE_UINT8, m->whole.dim_count, m->piece_sizes, NULL};
    const uint32_t axis = m->whole.dim_count - 1;
    if (c->join) {
        for (uint32_t k = 0; k < n; ++k) m->in[k] = m->piece_buf + (size_t)k * piece_bytes;
        m->out[0] = m->whole_buf;
        m->join = (tmv_join_desc){n, m->pieces, &m->whole, axis};
        m->op = (tmv_op_desc){TMV_OP_JOIN, &m->join, 0};
    } else {
        for (uint32_t k = 0; k < n; ++k) m->out[k] = m->piece_buf + (size_t)k * piece_bytes;
        uint64_t state = 0x9E3779B97F4A7C15ull;
        for (uint32_t k = n - 1; c->layout == SHUFFLED && k > 0; --k) {   /* Fisher-Yates */
            const uint32_t j = (uint32_t)((bench_rand(&state) >> 11) % (k + 1));
            void *t = m->out[k];
            m->out[k] = m->out[j];
            m->out[j] = t;
        }
        m->in[0] = m->whole_buf;
        m->split = (tmv_split_desc){&m->whole, n, m->pieces, axis};
        m->op = (tmv_op_desc){TMV_OP_SPLIT, &m->split, 0};
    }
    return 0;
}

static void skip_with_status(tmvb_state *st, const char *what, tmv_status s) {
    char msg[640];
    snprintf(msg, sizeof msg, "%s: %s: %s", what, tmv_status_string(s), tmv_last_error());
    tmvb_skip(st, msg);
}

static void run_many(tmvb_state *st, void *arg) {
    const many_case *c = arg;
    many_setup m;
    tmv_op *op = NULL;
    tmv_status s = tmv_set_isa(many_isa);
    if (s != TMV_OK) {
        skip_with_status(st, "set_isa", s);
        return;
    }
    if (many_build(c, &m)) {
        tmvb_skip(st, "out of memory while building the case");
        return;
    }
    if ((s = tmv_op_create(&m.op, &op)) != TMV_OK) {
        skip_with_status(st, "create", s);
    } else if ((s = tmv_op_execute(op, m.in, m.out)) != TMV_OK) {   /* checks the case runs, warms up */
        skip_with_status(st, "execute", s);
    } else if (c->execute) {
        const uint64_t bytes = (uint64_t)PIECES * (is_strided(c) ? 2 : 1);
        const double yardstick = memcpy_seconds(bytes);
        int failed = 0;   /* counted, not branched on: the warm-up call succeeded */
        while (tmvb_keep_running(st)) {
            failed += tmv_op_execute(op, m.in, m.out) != TMV_OK;
            tmvb_consume(m.out[0]);
        }
        if (failed) tmvb_skip(st, "execute failed inside the timed loop");
        tmvb_set_bytes_per_iteration(st, 2 * bytes);
        tmvb_set_rate_counter(st, "x_memcpy", yardstick);
    } else {
        while (tmvb_keep_running(st)) {
            tmv_op *again = NULL;
            if (tmv_op_create(&m.op, &again) == TMV_OK) tmvb_consume(again);
            tmv_op_destroy(again);
        }
    }
    tmvb_set_counter(st, "pieces", PIECES);
    if (op) tmvb_set_label(st, tmv_op_describe(op));
    tmv_op_destroy(op);
    many_free(&m);
}

void bench_register_many_pieces(void) {
    char name[256];
    many_isa = tmv_get_isa();
    for (size_t i = 0; i < sizeof many_cases / sizeof many_cases[0]; ++i) {
        const many_case *c = &many_cases[i];
        snprintf(name, sizeof name, "many_pieces/%s/%s/u8/%uk/%s", c->variant, layout_names[c->layout],
                 PIECES / 1000, tmv_isa_name(many_isa));
        tmvb_register(name, run_many, (void *)c);
    }
}
