/* cost_tables.h - the cost model's fitted tables, one per microarchitecture, and which one a CPU gets.
 *
 * A kernel's prices are not portable: the same rows-of-lines JOIN kernel
 * costs 2.2x more per piece on a Zen 5 than the table fitted on a Zen 4
 * (and scaled from an Intel Xeon) says, and a masked store past L2 costs
 * twice as much there. So each table is fitted whole on one machine
 * (`tmv-check-kernels --calibrate=src/cost_tables/NAME.inc`) and chosen for
 * the CPUs of its vendor and family; any other CPU gets the default table.
 * TENSORMOVE_COST_TABLE=NAME chooses one by name instead (tuning.h). */
#ifndef TMV_COST_TABLES_H
#define TMV_COST_TABLES_H

#include <stdbool.h>

#include "cost.h"
#include "cpu.h"

typedef struct tmv_cost_table {
    const char             *name;       /* what TENSORMOVE_COST_TABLE names: "zen5" */
    tmv_cpu_vendor          vendor;     /* the CPUs it is chosen for: this vendor's */
    int                     family;     /* of this family (0: the default, any CPU) */
    const tmv_cost_profile *profiles;
    unsigned                count;
    /* Streaming stores of a step that reads little (a broadcast) write DRAM
     * faster than a copy moves it, so past L3 too the memory floor counts
     * the step's traffic, not its output (tmv_cost_floor_ns). On the Zen 5
     * VM `copy_permute` broadcasts wrote 64 MiB at 39-40 B/ns where the
     * best copy moves 24.6; on the Zen 4 VM they did not write faster. */
    bool                    dram_writes_faster;
} tmv_cost_table;

/* Every table, the default last. */
extern const tmv_cost_table tmv_cost_tables[];
extern const unsigned tmv_cost_table_count;

/* The table fitted for this CPU's vendor and family, else the default. */
const tmv_cost_table *tmv_cost_table_for(tmv_cpu_id cpu);

/* The table of that name, or NULL. */
const tmv_cost_table *tmv_cost_table_named(const char *name);

/* The default table (the last one): what a tuning record with no table is
 * priced by. */
const tmv_cost_table *tmv_cost_table_default(void);

#endif
