/* dispatch.c - kernel-set selection: detect the CPU once (the only user of
 * cpu_features), read TENSORMOVE_ISA once, publish the cap atomically. */
#include "dispatch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "cpu_features_macros.h"
#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#endif
#include "cpu_features_cache_info.h"
#include "error.h"

enum { FAMILY_NONE, FAMILY_X86, FAMILY_ARM, FAMILY_NEON_SIMDE };

static int family(tmv_isa isa)
{
    switch (isa) {
    case TMV_ISA_SSE2: case TMV_ISA_AVX2: case TMV_ISA_AVX512: case TMV_ISA_AVX512_VBMI:
        return FAMILY_X86;
    case TMV_ISA_NEON:
        return FAMILY_ARM;
    case TMV_ISA_NEON_SIMDE:
        return FAMILY_NEON_SIMDE;
    case TMV_ISA_SCALAR:
        break;
    }
    return FAMILY_NONE;
}

bool tmv_isa_includes(tmv_isa cap, tmv_isa kernel)
{
    return kernel == TMV_ISA_SCALAR || (family(kernel) == family(cap) && kernel <= cap);
}

const char *tmv_isa_name(tmv_isa isa)
{
    switch (isa) {
    case TMV_ISA_SCALAR: return "scalar";
    case TMV_ISA_SSE2: return "sse2";
    case TMV_ISA_AVX2: return "avx2";
    case TMV_ISA_AVX512: return "avx512";
    case TMV_ISA_AVX512_VBMI: return "avx512vbmi";
    case TMV_ISA_NEON: return "neon";
    case TMV_ISA_NEON_SIMDE: return "neon-simde";
    }
    return NULL;
}

/* The best set of this CPU. cpu_features reports AVX / AVX-512 only when the
 * OS saves their registers (it checks XCR0 with xgetbv). */
static tmv_isa detect(void)
{
#if defined(CPU_FEATURES_ARCH_X86_64)
    const X86Features f = GetX86Info().features;
    bool avx512 = f.avx512f && f.avx512bw && f.avx512dq && f.avx512vl;
    if (avx512 && f.avx512vbmi && f.avx512vbmi2)
        return TMV_ISA_AVX512_VBMI;
    if (avx512)
        return TMV_ISA_AVX512;
    if (f.avx2)
        return TMV_ISA_AVX2;
    return TMV_ISA_SSE2; /* the x86-64 baseline */
#elif defined(CPU_FEATURES_ARCH_AARCH64)
    return TMV_ISA_NEON; /* Advanced SIMD is part of the AArch64 baseline */
#else
    return TMV_ISA_SCALAR;
#endif
}

/* Half the largest cache this CPU reports, 8 MiB where it reports none. */
static uint64_t detect_stream_threshold(void)
{
    uint64_t largest = 0;
#if defined(CPU_FEATURES_ARCH_X86)
    const CacheInfo info = GetX86CacheInfo();
    for (int i = 0; i < info.size; i++)
        if ((info.levels[i].cache_type == CPU_FEATURE_CACHE_UNIFIED ||
             info.levels[i].cache_type == CPU_FEATURE_CACHE_DATA) &&
            (uint64_t)info.levels[i].cache_size > largest)
            largest = (uint64_t)info.levels[i].cache_size;
#endif
    return largest ? largest / 2 : (uint64_t)8 << 20;
}

static once_flag init_once = ONCE_FLAG_INIT;
static tmv_isa best;                   /* written once inside init */
static uint64_t stream_threshold;      /* written once inside init */
static unsigned prefetch_distance;     /* written once inside init */
static char env_value[64];             /* written once inside init: an invalid TENSORMOVE_ISA */
static _Atomic int current_isa;        /* a tmv_isa, or -1 while TENSORMOVE_ISA is invalid */

/* The sets at or below the detected one, plus the emulated NEON set where it
 * was built (it runs on any x86 CPU). */
static bool has(tmv_isa isa)
{
#if defined(TMV_HAVE_NEON_SIMDE_KERNELS)
    if (isa == TMV_ISA_NEON_SIMDE)
        return true;
#endif
    return tmv_isa_name(isa) != NULL && tmv_isa_includes(best, isa);
}

/* The set TENSORMOVE_ISA names, or -1 for a name that names none this CPU has. */
static int parse_env(const char *value)
{
    for (int i = 0; i < 64; i++)
        if (has((tmv_isa)i) && strcmp(value, tmv_isa_name((tmv_isa)i)) == 0)
            return i;
    return -1;
}

static void init(void)
{
    best = detect();
    stream_threshold = detect_stream_threshold();
    const char *threshold = getenv("TENSORMOVE_STREAM_THRESHOLD");
    if (threshold != NULL && threshold[0] != '\0')
        stream_threshold = strtoull(threshold, NULL, 0);
    prefetch_distance = 16;
    const char *distance = getenv("TENSORMOVE_GATHER_PREFETCH");
    if (distance != NULL && distance[0] != '\0') {
        const unsigned long long d = strtoull(distance, NULL, 0);
        prefetch_distance = d > TMV_GATHER_PREFETCH_MAX ? TMV_GATHER_PREFETCH_MAX : (unsigned)d;
    }
    int isa = (int)best;
    const char *env = getenv("TENSORMOVE_ISA");
    if (env != NULL && env[0] != '\0') {
        isa = parse_env(env);
        if (isa < 0)
            strncpy(env_value, env, sizeof env_value - 1);
    }
    atomic_store(&current_isa, isa);
}

tmv_status tmv_dispatch_status(void)
{
    call_once(&init_once, init);
    if (atomic_load(&current_isa) < 0)
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA,
                        "TENSORMOVE_ISA is \"%s\", which names no kernel set this CPU has "
                        "(it has \"%s\" and the sets below it); unset it or call tmv_set_isa",
                        env_value, tmv_isa_name(best));
    return TMV_OK;
}

tmv_isa tmv_get_isa(void)
{
    call_once(&init_once, init);
    int isa = atomic_load(&current_isa);
    return isa < 0 ? best : (tmv_isa)isa;
}

tmv_status tmv_set_isa(tmv_isa isa)
{
    call_once(&init_once, init);
    if (!has(isa))
        return tmv_fail(TMV_ERR_UNSUPPORTED_ISA,
                        "tmv_set_isa: %d (%s) is no kernel set this CPU has (it has \"%s\" and "
                        "the sets below it)", (int)isa, tmv_isa_name(isa) ? tmv_isa_name(isa) : "no name",
                        tmv_isa_name(best));
    atomic_store(&current_isa, (int)isa);
    return TMV_OK;
}

uint64_t tmv_stream_threshold(void)
{
    call_once(&init_once, init);
    return stream_threshold;
}

unsigned tmv_gather_prefetch_distance(void)
{
    call_once(&init_once, init);
    return prefetch_distance;
}
