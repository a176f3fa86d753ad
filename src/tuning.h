/* tuning.h - the tuning record a plan carries: thresholds kernels obey, resolved once per process. */
#ifndef TMV_TUNING_H
#define TMV_TUNING_H

#include <stdint.h>

#include "tensormove.h"

/* Kernels read tuning only from the record their step's shape points to,
 * never from globals or the environment, so a plan behaves the same for its
 * whole life and the per-kernel checker can run any kernel under any record. */
typedef struct tmv_tuning {
    /* Outputs of at least this many bytes are written with non-temporal
     * (streaming) stores by the kernels that have them: half the L3, so a
     * result that cannot stay in cache does not evict everything on its way
     * out, and at most TMV_STREAM_THRESHOLD_MAX. */
    uint64_t stream_threshold;
    /* How many index tuples ahead the row gathers that prefetch fetch a
     * row: 16 (measured on Zen 4), 0 for none; the least distance for
     * AVX-512's row gather of a large output from a table beyond L2, which
     * fetches 8 KiB of rows ahead (gather_avx512.c, rows_ahead). */
    uint32_t gather_prefetch;
    /* The fewest bytes a task of a parallel execute moves: a step is split
     * into at most bytes / task_min_bytes tasks, so small operators stay on
     * the calling thread. 128 KiB: an empty 2-task parallelize of
     * pthreadpool costs about 0.4 us here, the time one core copies ~36 KB
     * in L2. With 256 KiB the suite's L2 SPACE_TO_DEPTH / DEPTH_TO_SPACE
     * cases (just under 512 KiB) stayed one task (speed-up 1.0 on 2
     * threads); with 128 KiB they ran 1.67x / 1.80x, and 64 KiB gave no
     * more (1.52x / 1.64x): tmv-bench --threads=2 on the L2 rows. */
    uint64_t task_min_bytes;
    /* The CPU's level 1-3 data cache sizes (L1, L2 0: none reported; an L3
     * not reported is TMV_L3_ASSUMED): the planner's cost model (cost.h)
     * prices a step's bytes at the bandwidth of the smallest level its
     * working set fits in. */
    uint64_t cache_bytes[3];
    /* The fitted prices the cost model rates kernels by (cost_tables.h):
     * the table of this CPU's microarchitecture, or the one
     * TENSORMOVE_COST_TABLE names; NULL: the default table. */
    const struct tmv_cost_table *cost_table;
} tmv_tuning;

/* The default stream threshold's cap, 8 MiB: the L3 a CPU reports is the
 * whole socket's (105 MiB on a 2-core Sapphire Rapids VM), while one core's
 * share of a server's L3 is a few MiB (1.875 per Sapphire Rapids core, 4 per
 * Zen 4 EPYC core). On that VM a 3-way SPLIT of 4 KiB rows ran 1.15-1.5x
 * faster streamed than cached from 8 to 40 MiB of output and tied at 2-4 MiB,
 * and five of the model zoo's cases of 12-48 MiB went from 0.65-0.89 to
 * 0.87-1.49 x best copy (docs/PERFORMANCE.md, twenty-third sitting); the Zen 4 VM, whose
 * L3 cpu_features did not report, was tuned with 8 MiB throughout. */
#define TMV_STREAM_THRESHOLD_MAX ((uint64_t)8 << 20)
/* The L3 the cost model assumes where the CPU reports none (AMD's under
 * cpu_features, whose size sysconf misreports on a VM: cpu.c): 16 MiB, the
 * working set the stream threshold's 8 MiB of output makes. Priced as DRAM,
 * every step past L2 was floored at a DRAM copy's time, above what any of
 * its kernels took at 1 MiB, so the candidates tied and the registry's first
 * ran: JOIN and SPLIT of 100-byte pieces at 1 MiB by the lines kernel, 34-38
 * us, where the column moves take 21-23 (memcpy 17-21; Zen 5 VM, a copy
 * held 47-53 B/ns up to 8 MiB and fell to 34 at 16; docs/PERFORMANCE.md,
 * forty-first sitting). */
#define TMV_L3_ASSUMED ((uint64_t)16 << 20)
#define TMV_GATHER_PREFETCH_MAX 64
#define TMV_TASK_MIN_BYTES_DEFAULT ((uint64_t)128 << 10)

/* The process's record: the defaults for this CPU, overridden by
 * TENSORMOVE_STREAM_THRESHOLD (bytes, 1 to 2^63),
 * TENSORMOVE_GATHER_PREFETCH (0 to TMV_GATHER_PREFETCH_MAX tuples),
 * TENSORMOVE_TASK_MIN_BYTES (1 to 2^40) and TENSORMOVE_COST_TABLE (the
 * name of a cost table, cost_tables.h, in place of cpu_table, the one
 * fitted for this CPU).
 * Returns TMV_OK, or TMV_ERR_INVALID_ARGUMENT naming the variable when one
 * is malformed or out of range (the record then holds the defaults for it).
 * cache_bytes: the CPU's level 1-3 cache sizes (tmv_cpu_caches); the stream
 * threshold is half the L3 up to TMV_STREAM_THRESHOLD_MAX (that much where
 * no L3 is reported, and the record's L3 is then TMV_L3_ASSUMED). Called
 * once, by dispatch.c's initialization. */
tmv_status tmv_tuning_resolve(tmv_tuning *out, const uint64_t cache_bytes[3],
                              const struct tmv_cost_table *cpu_table);

#endif
