/* baseline.c - the yardsticks, measured next to the case they rate: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy).
 *
 * Measured once per size per run, a yardstick taken in a slow moment of a
 * shared machine rated every later case of that size up to 1.4x too well
 * (memcpy's own DRAM row came out at 1.40 x memcpy); the runner now measures
 * it for each case and size just before the case's kernel sets run, and again
 * before the rows on a pool, split over its threads and timed by the wall
 * clock. */
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

typedef void copy_fn(void *dst, const void *src, size_t n);

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

/* One copy of bytes, on the calling thread (pool NULL) or split into
 * pool->thread_count contiguous parts, one task each, cut at whole 64-byte
 * lines so that the streaming copy's parts stay aligned. */
typedef struct split_copy {
    copy_fn *copy;
    uint8_t *dst;
    const uint8_t *src;
    uint64_t bytes;
    const tmv_parallel *pool;
} split_copy;

/* The source first, then the destination, as the cases allocate them (the
 * order sets their offsets within a page). Returns 0, or -1 out of memory. */
static int split_copy_buffers(split_copy *c, bench_setup *s) {
    c->src = setup_buffer(s, (size_t)c->bytes, 1);
    c->dst = setup_buffer(s, (size_t)c->bytes, 0);
    if (c->src && c->dst) return 0;
    setup_free(s);
    return -1;
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

static void run_split_copy(void *context) {
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

double median_seconds(timed_fn *fn, void *context, clock_fn *clock) {
    double batch[BASELINE_BATCHES];
    long n = 1;
    while (time_calls(fn, context, clock, n) < BASELINE_BATCH_SECONDS) n *= 2;
    for (int b = 0; b < BASELINE_BATCHES; ++b) batch[b] = time_calls(fn, context, clock, n) / (double)n;
    for (int i = 1; i < BASELINE_BATCHES; ++i)   /* insertion sort, then the median */
        for (int j = i; j > 0 && batch[j] < batch[j - 1]; --j) {
            double x = batch[j];
            batch[j] = batch[j - 1];
            batch[j - 1] = x;
        }
    return batch[BASELINE_BATCHES / 2];
}

/* A pool's copies are timed by the wall clock: process CPU time would add
 * up its threads' times and hide any speed-up. */
static double copy_seconds(copy_fn *copy, uint64_t bytes, const tmv_parallel *pool) {
    bench_setup s = {0};
    split_copy c = {copy, NULL, NULL, bytes, pool};
    if (split_copy_buffers(&c, &s)) return 0.0;
    const double seconds = median_seconds(run_split_copy, &c, pool ? wall_seconds : cpu_seconds);
    setup_free(&s);
    return seconds;
}

double memcpy_seconds(uint64_t bytes) { return copy_seconds(libc_copy, bytes, NULL); }

double split_memcpy_seconds(uint64_t bytes, const tmv_parallel *pool) { return copy_seconds(libc_copy, bytes, pool); }

double split_stream_copy_seconds(uint64_t bytes, const tmv_parallel *pool) {
    return copy_seconds(stream_copy, bytes, pool);
}

/* A yardstick row, timed as the cases it stands beside. */
static void copy_case(tmvb_state *st, const copy_row *row, copy_fn *copy) {
    const double yardstick = copy_seconds(libc_copy, row->bytes, row->pool);
    const double best = copy_seconds(stream_copy, row->bytes, row->pool);
    bench_setup s = {0};
    split_copy c = {copy, NULL, NULL, row->bytes, row->pool};
    if (split_copy_buffers(&c, &s)) {
        tmvb_skip(st, "out of memory");
        return;
    }
    run_split_copy(&c);
    while (tmvb_keep_running(st)) run_split_copy(&c);
    tmvb_set_bytes_per_iteration(st, 2 * row->bytes);
    tmvb_set_counter(st, "out_bytes", (double)row->bytes);
    tmvb_set_rate_counter(st, "x_memcpy", yardstick);
    tmvb_set_rate_counter(st, "x_best_copy", best < yardstick ? best : yardstick);
    setup_free(&s);
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
