/* check_fault.h - naming the kernel that crashed tmv-check-kernels: a kernel
 * that reads past its input (which ends at a PROT_NONE page) or runs an
 * instruction the CPU lacks takes the checker down, and the report must
 * still say which kernel, case and step, and how to run it again. */
#ifndef TMV_CHECK_FAULT_H
#define TMV_CHECK_FAULT_H

#include <stdint.h>

/* Installs the handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE. It prints
 * what ck_fault_running last named, then hands the signal to the handler it
 * replaced (the default, or a sanitizer's). */
void ck_fault_catch(void);

/* What runs from now on: kernel (NULL: none, a fault is not the checker's to
 * name), under tuning record `record`, on step `step` of case `seed`. */
void ck_fault_running(const char *kernel, const char *record, uint64_t seed, uint32_t step);

#endif
