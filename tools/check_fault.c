/* check_fault.c - the fault handler of tmv-check-kernels (check_fault.h). */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "check_fault.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    const char *kernel, *record;
    uint64_t    seed;
    uint32_t    step;
} running;

static const int FAULTS[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
#define N_FAULTS (sizeof FAULTS / sizeof FAULTS[0])
static struct sigaction previous[N_FAULTS];

/* Names the kernel, then puts the previous handler back and returns: the
 * faulting instruction runs again and that handler takes it. */
static void on_fault(int sig)
{
    if (running.kernel != NULL) {
        char line[512];
        int n = snprintf(line, sizeof line,
                         "FAIL %s [%s] crashed (signal %d) on case 0x%016" PRIx64 ", step %" PRIu32 "\n"
                         "  reproduce: tmv-check-kernels --kernel %s --case 0x%016" PRIx64 "\n",
                         running.kernel, running.record, sig, running.seed, running.step, running.kernel,
                         running.seed);
        fflush(stdout);
        if (n > 0) {
            ssize_t written = write(STDOUT_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
            (void)written;
        }
        running.kernel = NULL;
    }
    for (size_t i = 0; i < N_FAULTS; i++)
        if (FAULTS[i] == sig)
            sigaction(sig, &previous[i], NULL);
}

void ck_fault_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FAULTS; i++)
        sigaction(FAULTS[i], &sa, &previous[i]);
}

void ck_fault_running(const char *kernel, const char *record, uint64_t seed, uint32_t step)
{
    running.record = record;
    running.seed = seed;
    running.step = step;
    running.kernel = kernel;
}
