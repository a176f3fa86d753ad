/* gather_bound.c - the memory system's bound on a GATHER_ND case: one byte loaded from every cache line its slices cover (gather_bound.h). */
#include "gather_bound.h"

#include <stdlib.h>

#include "bench.h"

#define LINE 64u
/* Loads between a line's prefetch and its load in gather_bound_run_ahead. */
#define AHEAD 32

typedef struct line_walk {
    const uint8_t *base;
    uint32_t *offsets;   /* NULL: count only */
    uint64_t count;
    int too_far;
} line_walk;

/* The run's first byte, then the first byte of each further line it covers. */
static void add_lines(void *context, const uint8_t *src, uint64_t bytes) {
    line_walk *w = context;
    if (bytes == 0) return;
    const uint64_t first = (uint64_t)(src - w->base), last = first + bytes - 1;
    if (src < w->base || last > UINT32_MAX) {
        w->too_far = 1;
        return;
    }
    for (uint64_t at = first; at <= last; at = (at | (LINE - 1)) + 1) {
        if (w->offsets) w->offsets[w->count] = (uint32_t)at;
        w->count++;
    }
}

int gather_bound_build(const obvious_plan *p, const uint8_t *base, gather_bound *b) {
    *b = (gather_bound){.base = base};
    if (!p->is_gather) return -1;
    line_walk w = {.base = base};
    obvious_gather_runs(p, add_lines, &w);
    if (w.too_far || w.count == 0) return -1;
    b->offsets = malloc(w.count * sizeof *b->offsets);
    b->sink = malloc(w.count);
    if (!b->offsets || !b->sink) {
        gather_bound_free(b);
        return -1;
    }
    w.offsets = b->offsets;
    w.count = 0;
    obvious_gather_runs(p, add_lines, &w);
    b->count = w.count;
    return 0;
}

void gather_bound_run(void *bound) {
    const gather_bound *b = bound;
    const uint8_t *base = b->base;
    const uint32_t *offsets = b->offsets;
    uint8_t *sink = b->sink;
    for (uint64_t i = 0; i < b->count; ++i) sink[i] = base[offsets[i]];
    tmvb_consume(sink);
}

void gather_bound_run_ahead(void *bound) {
    const gather_bound *b = bound;
    const uint8_t *base = b->base;
    const uint32_t *offsets = b->offsets;
    uint8_t *sink = b->sink;
    uint64_t i = 0;
    for (; i + AHEAD < b->count; ++i) {
        __builtin_prefetch(base + offsets[i + AHEAD]);
        sink[i] = base[offsets[i]];
    }
    for (; i < b->count; ++i) sink[i] = base[offsets[i]];
    tmvb_consume(sink);
}

void gather_bound_free(gather_bound *b) {
    free(b->offsets);
    free(b->sink);
    *b = (gather_bound){0};
}
