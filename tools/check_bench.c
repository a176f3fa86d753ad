/* check_bench.c - timing kernels for tmv-check-kernels --bench (check_bench.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "check_bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

ck_inputs *ck_inputs_new(const cg_case *c)
{
    for (uint32_t i = 0; i < c->input_count; i++)
        if (c->inputs[i].len > CK_BENCH_INPUT_MAX)
            return NULL;
    ck_inputs *in = calloc(1, sizeof *in);
    if (in == NULL)
        return NULL;
    in->count = c->input_count;
    for (uint32_t i = 0; i < c->input_count; i++) {
        const cg_region *r = &c->inputs[i];
        const size_t at = (uintptr_t)r->data % 64;
        in->maps[i] = aligned_alloc(64, (at + r->len + 4096 + 63) / 64 * 64);
        if (in->maps[i] == NULL) {
            ck_inputs_free(in);
            return NULL;
        }
        if (r->len > 0)
            memcpy((uint8_t *)in->maps[i] + at, r->data, r->len);
        in->ptrs[i] = (uint8_t *)in->maps[i] + at;
    }
    return in;
}

void ck_inputs_free(ck_inputs *in)
{
    if (in == NULL)
        return;
    for (uint32_t i = 0; i < in->count; i++)
        free(in->maps[i]);
    free(in);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double ck_quantile(double *v, unsigned n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, compare_double);
    const double at = q * (n - 1);
    const unsigned below = (unsigned)at;
    return below + 1 < n ? v[below] + (at - below) * (v[below + 1] - v[below]) : v[n - 1];
}

#define SAMPLES 9
#define SAMPLE_NS 20000u

double ck_step_time(const ck_step *cs, const void *const *inputs, cg_outputs *outs)
{
    tmv_step_execute(&cs->step, inputs, outs->ptrs); /* warm up */
    uint64_t calls = 1, t;
    for (;;) {
        t = now_ns();
        for (uint64_t i = 0; i < calls; i++)
            tmv_step_execute(&cs->step, inputs, outs->ptrs);
        t = now_ns() - t;
        if (t >= SAMPLE_NS || calls >= (1u << 20))
            break;
        calls *= 2;
    }
    double ns[SAMPLES];
    for (unsigned s = 0; s < SAMPLES; s++) {
        t = now_ns();
        for (uint64_t i = 0; i < calls; i++)
            tmv_step_execute(&cs->step, inputs, outs->ptrs);
        ns[s] = (double)(now_ns() - t) / (double)calls;
    }
    return ck_quantile(ns, SAMPLES, 0.5);
}

bool ck_reservoir_offer(ck_reservoir *r, unsigned capacity, cg_rng *rng, unsigned *slot)
{
    if (++r->offered <= capacity) {
        *slot = r->filled;
        return true;
    }
    const uint64_t draw = cg_rng_below(rng, r->offered);
    *slot = (unsigned)draw;
    return draw < capacity;
}

void ck_reservoir_put(ck_reservoir *r, unsigned slot)
{
    if (slot == r->filled)
        r->filled++;
}

bool ck_bench_offer(ck_bench *b, cg_rng *rng, unsigned *slot)
{
    return ck_reservoir_offer(&b->sample, CK_BENCH_SHAPES, rng, slot);
}

void ck_bench_put(ck_bench *b, unsigned slot, double ns, double portable_ns)
{
    b->ns[slot] = ns;
    b->portable_ns[slot] = portable_ns;
    ck_reservoir_put(&b->sample, slot);
}

void ck_bench_print_head(FILE *f)
{
    fprintf(f, "\nbench: median ns per call over a sample of up to %d of the shapes each kernel accepted\n"
               "(no-stream record; the stream kernels under the stream record), against the portable\n"
               "kernel on the same shapes; speedup = geometric mean of portable / kernel time per shape.\n"
               "Emulated sets (neon-simde) run far slower than the native code would.\n",
            CK_BENCH_SHAPES);
    fprintf(f, "  %-34s %6s %12s %12s %8s\n", "kernel", "shapes", "kernel ns", "portable ns", "speedup");
}

void ck_bench_print_row(FILE *f, const char *kernel, ck_bench *b)
{
    const unsigned n = b->sample.filled;
    if (n == 0) {
        fprintf(f, "  %-34s %6u %12s %12s %8s\n", kernel, 0u, "-", "-", "-");
        return;
    }
    double log_sum = 0;
    for (unsigned s = 0; s < n; s++)
        log_sum += log(b->portable_ns[s] / b->ns[s]);
    const double speedup = exp(log_sum / n);
    fprintf(f, "  %-34s %6u %12.1f %12.1f %8.2f\n", kernel, n, ck_quantile(b->ns, n, 0.5),
            ck_quantile(b->portable_ns, n, 0.5), speedup);
}
