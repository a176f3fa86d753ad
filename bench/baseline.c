/* baseline.c - memcpy of the same output bytes, the yardstick of x_memcpy, measured next to the case it rates.
 *
 * Measured once per size per run, a yardstick taken in a slow moment of a
 * shared machine rated every later case of that size up to 1.4x too well
 * (memcpy's own DRAM row came out at 1.40 x memcpy); the runner now measures
 * it for each case and size just before the case's kernel sets run. */
#define _POSIX_C_SOURCE 200809L
#include "baseline.h"

#include <string.h>
#include <time.h>

#include "setup.h"

#define BASELINE_BATCHES 7
#define BASELINE_BATCH_SECONDS 0.005

double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double time_copies(void *dst, const void *src, uint64_t bytes, long n) {
    const double t0 = cpu_seconds();
    for (long i = 0; i < n; ++i) {
        memcpy(dst, src, (size_t)bytes);
        tmvb_consume(dst);
    }
    return cpu_seconds() - t0;
}

/* Doubles the copies per batch until a batch lasts BASELINE_BATCH_SECONDS
 * (this is also the warm-up), then takes the median of BASELINE_BATCHES
 * batches: the clock is read per batch, never per copy. */
double memcpy_seconds(uint64_t bytes) {
    bench_setup s = {0};
    void *src = setup_buffer(&s, (size_t)bytes, 1), *dst = setup_buffer(&s, (size_t)bytes, 0);
    double batch[BASELINE_BATCHES];
    if (!src || !dst) {
        setup_free(&s);
        return 0.0;
    }
    long n = 1;
    while (time_copies(dst, src, bytes, n) < BASELINE_BATCH_SECONDS) n *= 2;
    for (int b = 0; b < BASELINE_BATCHES; ++b) batch[b] = time_copies(dst, src, bytes, n) / (double)n;
    setup_free(&s);
    for (int i = 1; i < BASELINE_BATCHES; ++i)   /* insertion sort, then the median */
        for (int j = i; j > 0 && batch[j] < batch[j - 1]; --j) {
            double x = batch[j];
            batch[j] = batch[j - 1];
            batch[j - 1] = x;
        }
    return batch[BASELINE_BATCHES / 2];
}


void bench_memcpy_case(tmvb_state *st, void *arg) {
    const uint64_t bytes = *(const uint64_t *)arg;
    const double yardstick = memcpy_seconds(bytes);
    bench_setup s = {0};
    void *src = setup_buffer(&s, (size_t)bytes, 1), *dst = setup_buffer(&s, (size_t)bytes, 0);
    if (!src || !dst) {
        setup_free(&s);
        tmvb_skip(st, "out of memory");
        return;
    }
    memcpy(dst, src, (size_t)bytes);
    while (tmvb_keep_running(st)) {
        memcpy(dst, src, (size_t)bytes);
        tmvb_consume(dst);
    }
    tmvb_set_bytes_per_iteration(st, 2 * bytes);
    tmvb_set_counter(st, "out_bytes", (double)bytes);
    tmvb_set_rate_counter(st, "x_memcpy", yardstick);
    setup_free(&s);
}

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
