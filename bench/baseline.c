/* baseline.c - the yardsticks, measured next to the case they rate: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy), timed in slices that alternate with the case's.
 *
 * Measured once per size per run, a yardstick taken in a slow moment of a
 * shared machine rated every later case of that size up to 1.4x too well
 * (memcpy's own DRAM row came out at 1.40 x memcpy); measured for each case
 * just before it ran, the ratio still moved by up to 2x at 1 MiB on a VM
 * whose copies run at 37-87 us from one 50 ms to the next, and the 16 KiB
 * memcpy, timed once a case, read 112-650 ns from one case to the next
 * (2026-11-28). So the case and its yardsticks are now timed in alternating
 * short slices, and each ratio is the median over rounds of the two times
 * in one round (paired_ratios): 109-230 ns. */
#define _POSIX_C_SOURCE 200809L
#include "baseline.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "setup.h"

#define BASELINE_BATCHES 7
#define BASELINE_BATCH_SECONDS 0.005
#define PAIRED_ROUNDS 5
#define PAIRED_SLICE_SECONDS 0.0005

double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void libc_copy(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }

/* The copy that writes memory-sized outputs fastest here: whole 64-byte
 * lines of the destination with non-temporal stores (no read for
 * ownership), the partial lines at either end with memcpy; plain memcpy
 * where the compiler has no SSE2. */
static void stream_copy(void *dst, const void *src, size_t n) {
#if defined(__SSE2__)
    uint8_t *d = dst;
    const uint8_t *s = src;
    const size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (n < head + 64) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64)
        for (unsigned i = 0; i < 64; i += 16)
            _mm_stream_si128((__m128i *)(void *)(d + i), _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
    memcpy(d, s, n);
    _mm_sfence();
#else
    memcpy(dst, src, n);
#endif
}

/* The source first, then the destination, as the cases allocate them (the
 * order sets their offsets within a page). Returns 0, or -1 out of memory. */
static int split_copy_buffers(split_copy *c, bench_setup *s) {
    c->src = setup_buffer(s, (size_t)c->bytes, 1);
    c->dst = setup_buffer(s, (size_t)c->bytes, 0);
    if (c->src && c->dst) return 0;
    setup_free(s);
    return -1;
}

int yardstick_copies_make(yardstick_copies *y, uint64_t bytes, const tmv_parallel *pool) {
    *y = (yardstick_copies){.libc = {libc_copy, NULL, NULL, bytes, pool}};
    if (split_copy_buffers(&y->libc, &y->buffers)) return -1;
    y->stream = y->libc;
    y->stream.copy = stream_copy;
    return 0;
}

void yardstick_copies_free(yardstick_copies *y) {
    setup_free(&y->buffers);
    *y = (yardstick_copies){0};
}

static uint64_t part_start(const split_copy *c, size_t part) {
    const uint64_t lines = (c->bytes + 63) / 64, start = lines * part / c->pool->thread_count * 64;
    return start < c->bytes ? start : c->bytes;
}

static void copy_part(void *context, size_t part) {
    const split_copy *c = context;
    const uint64_t start = part_start(c, part), end = part_start(c, part + 1);
    c->copy(c->dst + start, c->src + start, (size_t)(end - start));
}

void split_copy_run(void *context) {
    const split_copy *c = context;
    if (c->pool) c->pool->parallelize(c->pool->pool, copy_part, context, c->pool->thread_count);
    else c->copy(c->dst, c->src, (size_t)c->bytes);
    tmvb_consume(c->dst);
}

static double time_calls(timed_fn *fn, void *context, clock_fn *clock, long n) {
    const double t0 = clock();
    for (long i = 0; i < n; ++i) fn(context);
    return clock() - t0;
}

static void sort_seconds(double *x, int n) {   /* insertion sort: a handful */
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && x[j] < x[j - 1]; --j) {
            const double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
}

/* Calls of fn that last at least `seconds`, doubling from one (this is also
 * the warm-up). */
static long calls_lasting(timed_fn *fn, void *context, clock_fn *clock, double seconds) {
    long n = 1;
    while (time_calls(fn, context, clock, n) < seconds) n *= 2;
    return n;
}

double median_seconds(timed_fn *fn, void *context, clock_fn *clock) {
    double batch[BASELINE_BATCHES];
    const long n = calls_lasting(fn, context, clock, BASELINE_BATCH_SECONDS);
    for (int b = 0; b < BASELINE_BATCHES; ++b) batch[b] = time_calls(fn, context, clock, n) / (double)n;
    sort_seconds(batch, BASELINE_BATCHES);
    return batch[BASELINE_BATCHES / 2];
}

void paired_ratios(timed_fn *const *fns, void *const *contexts, int n, clock_fn *clock, double *ratio) {
    long calls[PAIRED_MAX];
    double rounds[PAIRED_MAX][PAIRED_ROUNDS];
    for (int i = 0; i < n; ++i) calls[i] = calls_lasting(fns[i], contexts[i], clock, PAIRED_SLICE_SECONDS);
    for (int r = 0; r < PAIRED_ROUNDS; ++r) {
        double first = 0;
        for (int i = 0; i < n; ++i) {
            /* the slice before moved other data through the caches: one
             * untimed call brings this one's back, where that is cheap */
            if (calls[i] >= 4) fns[i](contexts[i]);
            const double per_call = time_calls(fns[i], contexts[i], clock, calls[i]) / (double)calls[i];
            if (i == 0) first = per_call;
            rounds[i][r] = first > 0 ? per_call / first : 0;
        }
    }
    for (int i = 0; i < n; ++i) {
        sort_seconds(rounds[i], PAIRED_ROUNDS);
        ratio[i] = rounds[i][PAIRED_ROUNDS / 2];
    }
}

double memcpy_seconds(uint64_t bytes) {
    yardstick_copies y;
    if (yardstick_copies_make(&y, bytes, NULL)) return 0.0;
    const double seconds = median_seconds(split_copy_run, &y.libc, cpu_seconds);
    yardstick_copies_free(&y);
    return seconds;
}

/* A yardstick row, timed as the cases it stands beside; a pool's copies by
 * the wall clock: process CPU time would add up its threads' times and hide
 * any speed-up. */
static void copy_case(tmvb_state *st, const copy_row *row, copy_fn *copy) {
    yardstick_copies y;
    bench_setup s = {0};
    split_copy c = {copy, NULL, NULL, row->bytes, row->pool};
    if (yardstick_copies_make(&y, row->bytes, row->pool)) {
        tmvb_skip(st, "out of memory");
        return;
    }
    if (split_copy_buffers(&c, &s)) {
        yardstick_copies_free(&y);
        tmvb_skip(st, "out of memory");
        return;
    }
    split_copy_run(&c);
    while (tmvb_keep_running(st)) split_copy_run(&c);
    timed_fn *const fns[3] = {split_copy_run, split_copy_run, split_copy_run};
    void *const contexts[3] = {&c, &y.libc, &y.stream};
    double ratio[3];
    paired_ratios(fns, contexts, 3, row->pool ? wall_seconds : cpu_seconds, ratio);
    tmvb_set_bytes_per_iteration(st, 2 * row->bytes);
    tmvb_set_counter(st, "out_bytes", (double)row->bytes);
    tmvb_set_counter(st, "x_memcpy", ratio[1]);
    tmvb_set_counter(st, "x_best_copy", ratio[2] < ratio[1] ? ratio[2] : ratio[1]);
    setup_free(&s);
    yardstick_copies_free(&y);
}

void bench_memcpy_case(tmvb_state *st, void *arg) { copy_case(st, arg, libc_copy); }

void bench_stream_copy_case(tmvb_state *st, void *arg) { copy_case(st, arg, stream_copy); }

/* No gather can beat the memory system's random loads: this row shows what
 * they cost here beside memcpy, so the element-gather rows can be read
 * against it (they also read and check k indices per element). */
void bench_random_loads_case(tmvb_state *st, void *arg) {
    const uint64_t bytes = ((const copy_row *)arg)->bytes, n = bytes / 4;
    const double yardstick = memcpy_seconds(bytes);
    bench_setup s = {0};
    const uint8_t *table = setup_buffer(&s, (size_t)bytes, 1);
    uint32_t *offsets = setup_buffer(&s, (size_t)(n * 4), 0);
    uint32_t *out = setup_buffer(&s, (size_t)(n * 4), 0);
    if (!table || !offsets || !out) {
        setup_free(&s);
        tmvb_skip(st, "out of memory");
        return;
    }
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (uint64_t i = 0; i < n; ++i) {   /* xorshift64: offsets of whole elements */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        offsets[i] = (uint32_t)(x % n * 4);
    }
    while (tmvb_keep_running(st)) {
        for (uint64_t i = 0; i < n; ++i) memcpy(&out[i], table + offsets[i], 4);
        tmvb_consume(out);
    }
    tmvb_set_bytes_per_iteration(st, 3 * n * 4);
    tmvb_set_counter(st, "out_bytes", (double)bytes);
    tmvb_set_rate_counter(st, "x_memcpy", yardstick);
    setup_free(&s);
}
