/* cpu_pin.h - one-thread measurements kept on one CPU: the one of the process's CPUs where an 8 KiB copy in L1
 * runs fastest, found by timing that copy on each of them (again after a second or more).
 *
 * The CPUs a process may run on need not move bytes equally fast: on the Zen 5 VM this suite was tuned on, one
 * of the two vCPUs copied 8 KiB in L1 in 59.7 ns and the other in 78.1 (a chain of multiplies: 0.57 and 0.59 ns),
 * and a process ran every kernel 1.3-1.8x slower on the second. The scheduler put each process on one or the
 * other, so one build measured two ways from one run to the next, and which of the two was slow changed every
 * few minutes (docs/PERFORMANCE.md, "Two vCPUs"). A one-thread row started on the CPU that is fastest then
 * measures one machine; the report says which CPU each row ran on. */
#ifndef TMV_BENCH_CPU_PIN_H
#define TMV_BENCH_CPU_PIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chooses the CPU one-thread rows run on: "fastest" (the default) times an 8 KiB copy on each CPU of the
 * process's affinity mask and takes the fastest, and times them again when a row is pinned a second or more
 * after the last timing; a number takes that CPU; "none" pins nothing. Leaves the
 * calling thread on its mask as it was (threads started after this inherit it). Writes what it chose and each
 * CPU's copy time to report (for the report's context). Returns 0, or -1 for a CPU not in the mask or a value
 * it does not know (with the reason in report). */
int bench_cpu_choose(const char *how, char *report, size_t size);

/* Moves the calling thread to the chosen CPU (pinned nonzero) or back to the process's mask (pinned 0: a row
 * on a pool of threads, which runs on the calling thread too). A system call only when that changes. */
void bench_cpu_pin(int pinned);

/* The CPU the calling thread is pinned to, -1 if none. */
int bench_cpu_current(void);

#ifdef __cplusplus
}
#endif

#endif /* TMV_BENCH_CPU_PIN_H */
