/* runner.c - registers every case x size x kernel set, prepares a case once and times tmv_op_execute. */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "bench.h"
#include "cases.h"
#include "context.h"

#define WARMUP_SECONDS 0.005

typedef struct entry {
    const bench_case *c;
    int size;   /* index into size_class_names */
    int isa;
} entry;

/* The prepared case, kept across the calls Google Benchmark makes for one
 * benchmark (iteration probing, repetitions). Its buffers also serve the next
 * kernel set of the same case and size; only the op is created anew. */
static struct {
    const entry *e;
    bench_setup s;
    int built;
    double yardstick;   /* memcpy_seconds of the output bytes, measured when the case was built */
    double best_copy;   /* the smaller of that and stream_copy_seconds */
    tmv_op *op;
    char error[512];
} cur;

static void release_op(void) {
    tmv_op_destroy(cur.op);
    cur.op = NULL;
    cur.error[0] = '\0';
}

static tmv_status run_once(void) {
    if (cur.s.one_shot) return tmv_execute(&cur.s.op, cur.s.in, cur.s.out);
    return tmv_op_execute(cur.op, cur.s.in, cur.s.out);
}

static void fail(const char *what, tmv_status st) {
    snprintf(cur.error, sizeof cur.error, "%s: %s: %s", what, tmv_status_string(st), tmv_last_error());
}

/* Builds the case (unless the previous entry was the same case and size),
 * creates its op under its kernel set, warms up. Returns 0 or sets cur.error. */
static int prepare(const entry *e) {
    if (cur.e == e) return cur.error[0] ? -1 : 0;
    const int same_data = cur.built && cur.e && cur.e->c == e->c && cur.e->size == e->size;
    release_op();
    if (!same_data) {
        setup_free(&cur.s);
        cur.built = 0;
    }
    cur.e = e;
    tmv_status st = tmv_set_isa((tmv_isa)e->isa);
    if (st != TMV_OK) {
        fail("set_isa", st);
        return -1;
    }
    if (!cur.built) {
        if (e->c->kind->build(e->c, size_class_bytes[e->size], &cur.s)) {
            setup_free(&cur.s);
            snprintf(cur.error, sizeof cur.error, "out of memory while building the case");
            return -1;
        }
        cur.built = 1;
        cur.yardstick = memcpy_seconds(cur.s.bytes_written);
        const double stream = stream_copy_seconds(cur.s.bytes_written);
        cur.best_copy = stream < cur.yardstick ? stream : cur.yardstick;
    }
    if (!cur.s.one_shot && (st = tmv_op_create(&cur.s.op, &cur.op)) != TMV_OK) {
        fail("create", st);
        return -1;
    }
    const double t0 = cpu_seconds();
    do {   /* at least once: checks the case runs, warms caches and vector units */
        if ((st = run_once()) != TMV_OK) {
            fail("execute", st);
            return -1;
        }
    } while (cpu_seconds() - t0 < WARMUP_SECONDS);
    return 0;
}

static void run_entry(tmvb_state *state, void *arg) {
    const entry *e = arg;
    if (prepare(e)) {
        tmvb_skip(state, cur.error);
        return;
    }
    const double yardstick = cur.yardstick;
    /* the one-shot case creates its op inside the loop; prepare() set this set already, so it succeeds */
    if (tmv_set_isa((tmv_isa)e->isa) != TMV_OK) {
        tmvb_skip(state, tmv_last_error());
        return;
    }
    while (tmvb_keep_running(state)) {
        run_once();
        tmvb_consume(cur.s.out[0]);
    }
    tmvb_set_bytes_per_iteration(state, cur.s.bytes_read + cur.s.bytes_written);
    tmvb_set_counter(state, "out_bytes", (double)cur.s.bytes_written);
    tmvb_set_rate_counter(state, "x_memcpy", yardstick);
    tmvb_set_rate_counter(state, "x_best_copy", cur.best_copy);
    if (cur.op) tmvb_set_label(state, tmv_op_describe(cur.op));   /* the kernels that ran */
}

static int wanted(const bench_case *c, int size, int quick) {
    if (!(c->sizes & (1u << size))) return 0;
    return !quick || (1u << size) != SIZE_DRAM || (c->sizes & QUICK_DRAM);
}

void bench_register_all(int quick) {
    static uint64_t memcpy_bytes[SIZE_CLASS_COUNT];
    int isas[64];
    const int isa_count = bench_available_isas(isas, 64);
    char name[256], label[64];

    bench_add_context();
    for (int z = 0; z < SIZE_CLASS_COUNT; ++z) {
        if (!size_class_bytes[z]) continue;
        memcpy_bytes[z] = size_class_bytes[z];
        snprintf(name, sizeof name, "memcpy/libc/%lluKiB/u8/%s/-", (unsigned long long)(memcpy_bytes[z] >> 10),
                 size_class_names[z]);
        tmvb_register(name, bench_memcpy_case, &memcpy_bytes[z]);
        snprintf(name, sizeof name, "memcpy/stream/%lluKiB/u8/%s/-", (unsigned long long)(memcpy_bytes[z] >> 10),
                 size_class_names[z]);
        tmvb_register(name, bench_stream_copy_case, &memcpy_bytes[z]);
        snprintf(name, sizeof name, "bound/random-loads/4B/u8/%s/-", size_class_names[z]);
        tmvb_register(name, bench_random_loads_case, &memcpy_bytes[z]);
    }

    entry *entries = calloc(bench_case_count * SIZE_CLASS_COUNT * (size_t)isa_count, sizeof *entries);
    if (!entries) return;
    size_t n = 0;
    for (size_t i = 0; i < bench_case_count; ++i) {
        const bench_case *c = &bench_cases[i];
        c->kind->label(c, label, sizeof label);
        for (int z = 0; z < SIZE_CLASS_COUNT; ++z) {
            if (!wanted(c, z, quick)) continue;
            for (int k = 0; k < isa_count; ++k) {
                entries[n] = (entry){c, z, isas[k]};
                snprintf(name, sizeof name, "%s/%s/%s/%s/%s/%s", c->kind->family, c->kind->variant, label,
                         dtype_name(c->dtype), size_class_names[z], tmv_isa_name((tmv_isa)isas[k]));
                tmvb_register(name, run_entry, &entries[n++]);
            }
        }
    }
    bench_register_many_pieces();
}
