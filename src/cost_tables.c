/* cost_tables.c - the fitted cost tables (src/cost_tables/NAME.inc) and the CPUs each is chosen for. */
#include "cost_tables.h"

#include <string.h>

#define TMV_COST(name, call, block, line, piece, byte) {name, call, block, line, piece, byte},
static const tmv_cost_profile zen5[] = {
#include "cost_tables/zen5.inc"
};
static const tmv_cost_profile zen4[] = {
#include "cost_tables/zen4.inc"
};
#undef TMV_COST

#define ROWS(t) t, sizeof t / sizeof t[0]
const tmv_cost_table tmv_cost_tables[] = {
    /* fitted whole on a 2-core AMD EPYC VM of family 26 (Zen 5), 2026-11-30 */
    {"zen5", TMV_CPU_VENDOR_AMD, 0x1A, ROWS(zen5), true},
    /* Intel's family 6 (the Xeons): the default's prices (a table fitted
     * whole on a 2-core Xeon VM of model 207 planned no better:
     * docs/PERFORMANCE.md, forty-ninth sitting), but streaming stores write
     * DRAM faster than a copy moves it: there TILE's broadcasts by
     * copy_permute wrote 64 MiB at 20-24 B/ns where a streaming copy moved
     * 11-16 (fifty-first sitting) */
    {"xeon", TMV_CPU_VENDOR_INTEL, 6, ROWS(zen4), true},
    /* The default: mostly fitted on a 2-core AMD EPYC VM of family 25
     * (Zen 4), 2026-11-25 to 29, with rows timed on a Zen 3 and an Intel
     * Xeon scaled to its prices (the table's header says which). */
    {"zen4", TMV_CPU_VENDOR_OTHER, 0, ROWS(zen4), false},
};
#undef ROWS
const unsigned tmv_cost_table_count = sizeof tmv_cost_tables / sizeof tmv_cost_tables[0];

const tmv_cost_table *tmv_cost_table_default(void)
{
    return &tmv_cost_tables[tmv_cost_table_count - 1];
}

const tmv_cost_table *tmv_cost_table_for(tmv_cpu_id cpu)
{
    for (unsigned i = 0; i + 1 < tmv_cost_table_count; i++)
        if (tmv_cost_tables[i].vendor == cpu.vendor && tmv_cost_tables[i].family == cpu.family)
            return &tmv_cost_tables[i];
    return tmv_cost_table_default();
}

const tmv_cost_table *tmv_cost_table_named(const char *name)
{
    for (unsigned i = 0; i < tmv_cost_table_count; i++)
        if (strcmp(tmv_cost_tables[i].name, name) == 0)
            return &tmv_cost_tables[i];
    return NULL;
}
