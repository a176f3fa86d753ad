/* cpu_pin.c - one-thread measurements kept on the CPU where an 8 KiB copy in L1 runs fastest (cpu_pin.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_pin.h"

#define PROBE_BYTES 8192
#define PROBE_SAMPLES 301   /* their median: the speed most of a run sees, not one quiet moment's */
#define PROBE_COPIES 16     /* copies a sample */
/* How often "fastest" times the CPUs again: which vCPU is the slow one changed every few minutes on the VM
 * this was written on (cpu_pin.h), and a probe of two CPUs takes under a millisecond. */
#define REPROBE_NS 1e9

static struct {
    cpu_set_t mask;     /* the process's CPUs, as the thread found them */
    int cpu;            /* the chosen CPU, -1: none */
    int pinned;         /* the calling thread is on it */
    int fastest;        /* chosen by timing (again every REPROBE_NS), not by number */
    double probed_ns;   /* when the CPUs were last timed */
} pin = {.cpu = -1};

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median time of one 8 KiB memcpy between two L1-resident buffers, on the CPU the thread is on. */
static double copy_ns(void) {
    static _Alignas(64) unsigned char from[PROBE_BYTES], to[PROBE_BYTES];
    double ns[PROBE_SAMPLES];
    for (int s = 0; s < PROBE_SAMPLES; s++) {
        const double t = now_ns();
        for (int i = 0; i < PROBE_COPIES; i++) {
            memcpy(to, from, PROBE_BYTES);
            __asm__ volatile("" : : "r"(to) : "memory");   /* each copy happens */
        }
        ns[s] = (now_ns() - t) / PROBE_COPIES;
    }
    qsort(ns, PROBE_SAMPLES, sizeof ns[0], by_value);
    return ns[PROBE_SAMPLES / 2];
}

static int on_cpu(int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

/* Times the copy on each CPU of the mask; the fastest into pin.cpu, each one's time into report (or NULL).
 * Leaves the thread on the whole mask. */
static void choose_fastest(char *report, size_t size) {
    size_t used = report ? (size_t)snprintf(report, size, "8 KiB copy in L1:") : size;
    double least = INFINITY;
    pin.probed_ns = now_ns();
    pin.pinned = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &pin.mask) || on_cpu(cpu) != 0) continue;
        const double ns = copy_ns();
        if (report && used < size) used += (size_t)snprintf(report + used, size - used, " cpu %d %.1f ns;", cpu, ns);
        if (ns < least) {
            least = ns;
            pin.cpu = cpu;
        }
    }
    sched_setaffinity(0, sizeof pin.mask, &pin.mask);
}

int bench_cpu_choose(const char *how, char *report, size_t size) {
    pin.cpu = -1;
    pin.pinned = 0;
    pin.fastest = 0;
    if (sched_getaffinity(0, sizeof pin.mask, &pin.mask) != 0) {
        snprintf(report, size, "not pinned: the CPU mask cannot be read");
        return strcmp(how, "none") == 0 || strcmp(how, "fastest") == 0 ? 0 : -1;
    }
    if (strcmp(how, "none") == 0) {
        snprintf(report, size, "not pinned (--tmv_cpu=none)");
        return 0;
    }
    if (strcmp(how, "fastest") == 0) {
        char times[768];
        choose_fastest(times, sizeof times);
        if (pin.cpu < 0) {   /* no CPU of the mask would take the thread (a sandbox that forbids it) */
            snprintf(report, size, "not pinned: the thread cannot be moved to one CPU");
            return 0;
        }
        pin.fastest = 1;
        snprintf(report, size, "one-thread rows on the CPU where an 8 KiB copy runs fastest, timed again at most once a second (at start cpu %d; %s)", pin.cpu, times);
        return 0;
    }
    char *end = NULL;
    const long cpu = strtol(how, &end, 10);
    if (end == how || *end != '\0' || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET((int)cpu, &pin.mask)) {
        snprintf(report, size, "--tmv_cpu takes fastest, none or a CPU this process may run on, not \"%s\"", how);
        return -1;
    }
    pin.cpu = (int)cpu;
    snprintf(report, size, "one-thread rows on cpu %d (--tmv_cpu)", pin.cpu);
    return 0;
}

void bench_cpu_pin(int pinned) {
    if (pinned && pin.fastest && now_ns() - pin.probed_ns >= REPROBE_NS) choose_fastest(NULL, 0);
    pinned = pinned && pin.cpu >= 0;
    if (pinned == pin.pinned) return;
    if (pinned ? on_cpu(pin.cpu) : sched_setaffinity(0, sizeof pin.mask, &pin.mask)) return;
    pin.pinned = pinned;
}

int bench_cpu_current(void) { return pin.pinned ? pin.cpu : -1; }
