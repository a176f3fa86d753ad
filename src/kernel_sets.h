/* kernel_sets.h - the table of kernel sets: name, the CPU features each needs, and which sets stack. */
#ifndef TMV_KERNEL_SETS_H
#define TMV_KERNEL_SETS_H

#include <stdbool.h>
#include <stdint.h>

#include "tensormove.h"

/* Sets of one family stack: a set runs its own kernels and those of the
 * lower-ranked sets of its family, and every set runs the portable kernels
 * (the scalar set, family TMV_FAMILY_PORTABLE). */
typedef enum tmv_set_family {
    TMV_FAMILY_PORTABLE,
    TMV_FAMILY_X86,
    TMV_FAMILY_ARM,
    TMV_FAMILY_NEON_SIMDE   /* the NEON sources built through SIMDe on x86 */
} tmv_set_family;

typedef struct tmv_kernel_set {
    tmv_isa        isa;
    const char    *name;       /* as TENSORMOVE_ISA spells it */
    tmv_set_family family;
    unsigned       rank;       /* order within the family, ascending */
    uint32_t       requires;   /* TMV_CPU_* bits (cpu.h) the CPU must have */
    bool           emulated;   /* runs anywhere it is built, but never by default */
    bool           built;      /* its kernels are in this build */
} tmv_kernel_set;

/* Every set this build knows, in ascending order within each family, the
 * portable set first. */
extern const tmv_kernel_set tmv_kernel_sets[];
extern const unsigned tmv_kernel_set_count;

/* The set with this value, or NULL. */
const tmv_kernel_set *tmv_kernel_set_of(tmv_isa isa);

/* The set runs on a CPU with these TMV_CPU_* features. */
bool tmv_kernel_set_runs_on(const tmv_kernel_set *set, uint32_t cpu_features);

/* A kernel built for set `kernel` may run under cap `cap`. */
bool tmv_isa_includes(tmv_isa cap, tmv_isa kernel);

/* The same for every set at once: bit v is set for each set value v whose
 * kernels may run under `cap` (planning tests kernels against it). */
uint32_t tmv_isa_included_mask(tmv_isa cap);

#endif
