/* baseline.c - the yardsticks, measured next to the case they rate: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy).
 *
 * Measured once per size per run, a yardstick taken in a slow moment of a
 * shared machine rated every later case of that size up to 1.4x too well
 * (memcpy's own DRAM row came out at 1.40 x memcpy); the runner now measures
 * it for each case and size just before the case's kernel sets run. */
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

static double time_copies(copy_fn *copy, void *dst, const void *src, uint64_t bytes, long n) {
    const double t0 = cpu_seconds();
    for (long i = 0; i < n; ++i) {
        copy(dst, src, (size_t)bytes);
        tmvb_consume(dst);
    }
    return cpu_seconds() - t0;
}

/* Doubles the copies per batch until a batch lasts BASELINE_BATCH_SECONDS
 * (this is also the warm-up), then takes the median of BASELINE_BATCHES
 * batches: the clock is read per batch, never per copy. */
static double copy_seconds(copy_fn *copy, uint64_t bytes) {
    bench_setup s = {0};
    void *src = setup_buffer(&s, (size_t)bytes, 1), *dst = setup_buffer(&s, (size_t)bytes, 0);
    double batch[BASELINE_BATCHES];
    if (!src || !dst) {
        setup_free(&s);
        return 0.0;
    }
    long n = 1;
    while (time_copies(copy, dst, src, bytes, n) < BASELINE_BATCH_SECONDS) n *= 2;
    for (int b = 0; b < BASELINE_BATCHES; ++b) batch[b] = time_copies(copy, dst, src, bytes, n) / (double)n;
    setup_free(&s);
    for (int i = 1; i < BASELINE_BATCHES; ++i)   /* insertion sort, then the median */
        for (int j = i; j > 0 && batch[j] < batch[j - 1]; --j) {
            double x = batch[j];
            batch[j] = batch[j - 1];
            batch[j - 1] = x;
        }
    return batch[BASELINE_BATCHES / 2];
}

double memcpy_seconds(uint64_t bytes) { return copy_seconds(libc_copy, bytes); }

double stream_copy_seconds(uint64_t bytes) { return copy_seconds(stream_copy, bytes); }

/* A yardstick row: arg points to the byte count. */
static void copy_case(tmvb_state *st, uint64_t bytes, copy_fn *copy) {
    const double yardstick = memcpy_seconds(bytes), best = stream_copy_seconds(bytes);
    bench_setup s = {0};
    void *src = setup_buffer(&s, (size_t)bytes, 1), *dst = setup_buffer(&s, (size_t)bytes, 0);
    if (!src || !dst) {
        setup_free(&s);
        tmvb_skip(st, "out of memory");
        return;
    }
    copy(dst, src, (size_t)bytes);
    while (tmvb_keep_running(st)) {
        copy(dst, src, (size_t)bytes);
        tmvb_consume(dst);
    }
    tmvb_set_bytes_per_iteration(st, 2 * bytes);
    tmvb_set_counter(st, "out_bytes", (double)bytes);
    tmvb_set_rate_counter(st, "x_memcpy", yardstick);
    tmvb_set_rate_counter(st, "x_best_copy", best < yardstick ? best : yardstick);
    setup_free(&s);
}

void bench_memcpy_case(tmvb_state *st, void *arg) { copy_case(st, *(const uint64_t *)arg, libc_copy); }

void bench_stream_copy_case(tmvb_state *st, void *arg) { copy_case(st, *(const uint64_t *)arg, stream_copy); }

/* No gather can beat the memory system's random loads: this row shows what
 * they cost here beside memcpy, so the element-gather rows can be read
 * against it (they also read and check k indices per element). */
void bench_random_loads_case(tmvb_state *st, void *arg) {
    const uint64_t bytes = *(const uint64_t *)arg, n = bytes / 4;
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
