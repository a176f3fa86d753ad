/* cpu.c - CPU feature and cache detection through cpu_features (the only file that calls it). */
#include "cpu.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cpu_features_macros.h"
#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#endif
#include "cpu_features_cache_info.h"

uint32_t tmv_cpu_detect_features(void)
{
    uint32_t mask = 0;
#if defined(CPU_FEATURES_ARCH_X86_64)
    const X86Features f = GetX86Info().features;
    const struct { bool has; uint32_t bit; } bits[] = {
        {true, TMV_CPU_SSE2}, /* the x86-64 baseline */
        {f.avx2, TMV_CPU_AVX2}, {f.bmi2, TMV_CPU_BMI2},
        {f.avx512f, TMV_CPU_AVX512F}, {f.avx512bw, TMV_CPU_AVX512BW},
        {f.avx512dq, TMV_CPU_AVX512DQ}, {f.avx512vl, TMV_CPU_AVX512VL},
        {f.avx512vbmi, TMV_CPU_AVX512VBMI}, {f.avx512vbmi2, TMV_CPU_AVX512VBMI2},
    };
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (bits[i].has)
            mask |= bits[i].bit;
#elif defined(CPU_FEATURES_ARCH_AARCH64)
    mask |= TMV_CPU_NEON; /* Advanced SIMD is part of the AArch64 baseline */
#endif
    return mask;
}

tmv_cpu_id tmv_cpu_identify(void)
{
    tmv_cpu_id id = {TMV_CPU_VENDOR_OTHER, 0, 0};
#if defined(CPU_FEATURES_ARCH_X86)
    const X86Info info = GetX86Info();
    if (strcmp(info.vendor, "AuthenticAMD") == 0)
        id.vendor = TMV_CPU_VENDOR_AMD;
    else if (strcmp(info.vendor, "GenuineIntel") == 0)
        id.vendor = TMV_CPU_VENDOR_INTEL;
    id.family = info.family;
    id.model = info.model;
#endif
    return id;
}

void tmv_cpu_caches(uint64_t bytes[TMV_CPU_CACHE_LEVELS])
{
    for (int l = 0; l < TMV_CPU_CACHE_LEVELS; l++)
        bytes[l] = 0;
#if defined(CPU_FEATURES_ARCH_X86)
    const CacheInfo info = GetX86CacheInfo();
    for (int i = 0; i < info.size; i++) {
        const int l = info.levels[i].level - 1;
        if ((info.levels[i].cache_type == CPU_FEATURE_CACHE_UNIFIED ||
             info.levels[i].cache_type == CPU_FEATURE_CACHE_DATA) &&
            l >= 0 && l < TMV_CPU_CACHE_LEVELS && (uint64_t)info.levels[i].cache_size > bytes[l])
            bytes[l] = (uint64_t)info.levels[i].cache_size;
    }
#endif
    /* cpu_features reads Intel's cache leaf only, so on AMD it reports no
     * cache at all, and the cost model priced every step at DRAM bandwidth.
     * glibc's sysconf reads AMD's leaf too; it is taken for L1 and L2 but
     * not for L3, which a virtual machine can misreport (508 MiB on the
     * project's 2-core Zen 4 VM, where a 64 MiB copy runs at DRAM speed); the
     * tuning record assumes an L3 it is not given (TMV_L3_ASSUMED, tuning.h). */
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    const int names[2] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE};
    for (int l = 0; l < 2; l++) {
        const long v = bytes[l] == 0 ? sysconf(names[l]) : 0;
        if (v > 0)
            bytes[l] = (uint64_t)v;
    }
#endif
}
