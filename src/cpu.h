/* cpu.h - what this CPU can run and what caches it has: the only user of cpu_features. */
#ifndef TMV_CPU_H
#define TMV_CPU_H

#include <stdint.h>

/* CPU features kernel sets require, as bits of one mask. */
enum {
    TMV_CPU_SSE2 = 1u << 0,
    TMV_CPU_AVX2 = 1u << 1,
    TMV_CPU_BMI2 = 1u << 2,
    TMV_CPU_AVX512F = 1u << 3,
    TMV_CPU_AVX512BW = 1u << 4,
    TMV_CPU_AVX512DQ = 1u << 5,
    TMV_CPU_AVX512VL = 1u << 6,
    TMV_CPU_AVX512VBMI = 1u << 7,
    TMV_CPU_AVX512VBMI2 = 1u << 8,
    TMV_CPU_NEON = 1u << 9
};

/* The features this CPU has and its OS enables (cpu_features checks XCR0
 * for the AVX and AVX-512 register state). Detected on every call: callers
 * cache it (dispatch.c does, once). */
uint32_t tmv_cpu_detect_features(void);

/* Who made this CPU and its family and model as CPUID reports them
 * (family 0x19: Zen 3 and Zen 4, 0x1A: Zen 5): the cost model's tables
 * are fitted per microarchitecture and chosen by these (cost_tables.h).
 * Vendor OTHER with family and model 0 off x86. */
typedef enum tmv_cpu_vendor { TMV_CPU_VENDOR_OTHER, TMV_CPU_VENDOR_AMD, TMV_CPU_VENDOR_INTEL } tmv_cpu_vendor;
typedef struct tmv_cpu_id {
    tmv_cpu_vendor vendor;
    int            family, model;
} tmv_cpu_id;
tmv_cpu_id tmv_cpu_identify(void);

/* The sizes in bytes of the CPU's level 1, 2 and 3 data (or unified)
 * caches, 0 for a level it reports none of: from cpu_features on x86, with
 * glibc's sysconf for an L1 or L2 it does not report (all of them on AMD). */
#define TMV_CPU_CACHE_LEVELS 3
void tmv_cpu_caches(uint64_t bytes[TMV_CPU_CACHE_LEVELS]);

#endif
