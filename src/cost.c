/* cost.c - the planner's cost model: shape features, calibrated kernel profiles, the memory floor. */
#include "cost.h"

#include <pthread.h>
#include <string.h>

#include "cost_tables.h"

/* Best-copy bandwidth, in output bytes per ns, of a working set in L1, L2,
 * L3 and DRAM: glibc memcpy where it fits a cache, a streaming copy beyond
 * (tmv-bench's memcpy rows on Zen 4 on 2026-11-27: 16 KiB 153, 512 KiB 92,
 * 64 MiB 23.5 B/ns streamed against 18.7 by memcpy; a plain memcpy loop
 * gave 147 at 8 KiB and 55-60 at 1-8 MiB). The rates first measured here
 * (97, 48, 40, 16.9) were of a slower day of the VM: they floored 8 KiB
 * steps at a third of their time (TILE's replica copies, 4608 bytes by
 * copy_long in 20.5 ns, were rated 47.5), and a TILE plan of replica
 * copies lost to one broadcast that ran 1.8x slower. */
static const double copy_bytes_per_ns[4] = {153.0, 92.0, 56.0, 23.5};

tmv_cost_features tmv_cost_copy_features(const tmv_copy_shape *s)
{
    tmv_cost_features f = {1, 1, 1, (double)s->elem_bytes};
    for (uint32_t d = 0; d < s->rank; d++) {
        f.pieces *= (double)s->sizes[d];
        if (d + 1 < s->rank)
            f.lines *= (double)s->sizes[d];
        if (d + 2 < s->rank)
            f.blocks *= (double)s->sizes[d];
    }
    f.bytes *= f.pieces;
    return f;
}

tmv_cost_features tmv_cost_rows_features(const tmv_rows_shape *s)
{
    const double rows = (double)s->rows;
    return (tmv_cost_features){1, rows, rows * s->piece_count, rows * (double)s->joined_bytes};
}

bool tmv_cost_features_of(tmv_primitive p, const void *shape, tmv_cost_features *out)
{
    if (tmv_primitive_copies(p))
        *out = tmv_cost_copy_features(shape);
    else if (p == TMV_PRIMITIVE_JOIN_ROWS || p == TMV_PRIMITIVE_SPLIT_ROWS)
        *out = tmv_cost_rows_features(shape);
    else
        return false;
    return true;
}

bool tmv_cost_kernel_features(const tmv_kernel *k, const void *shape, tmv_cost_features *out)
{
    if (!tmv_cost_features_of(k->primitive, shape, out))
        return false;
    if (tmv_primitive_copies(k->primitive) && k->fn.copy.features != NULL)
        k->fn.copy.features(shape, out);
    return true;
}

/* row_of[t][i]: the row of tmv_kernels[i] in table t, or -1; made once
 * (test_cost fails for a table past TABLES_MAX: its kernels have no rows). */
#define TABLES_MAX 8
static pthread_once_t index_once = PTHREAD_ONCE_INIT;
static int row_of[TABLES_MAX][TMV_COST_KERNELS_MAX];

static void build_index(void)
{
    for (unsigned t = 0; t < tmv_cost_table_count && t < TABLES_MAX; t++)
        for (unsigned i = 0; i < tmv_kernel_count && i < TMV_COST_KERNELS_MAX; i++) {
            row_of[t][i] = -1;
            for (unsigned j = 0; j < tmv_cost_tables[t].count; j++)
                if (strcmp(tmv_cost_tables[t].profiles[j].kernel, tmv_kernels[i].name) == 0)
                    row_of[t][i] = (int)j;
        }
}

/* A tuning record with no table (the checker's, the tests') is priced by
 * the default one. */
static const tmv_cost_table *table_or_default(const tmv_cost_table *table)
{
    return table != NULL ? table : tmv_cost_table_default();
}

const tmv_cost_profile *tmv_cost_profile_in(const tmv_cost_table *table, const tmv_kernel *k)
{
    pthread_once(&index_once, build_index);
    table = table_or_default(table);
    const size_t t = (size_t)(table - tmv_cost_tables), i = (size_t)(k - tmv_kernels);
    if (t >= tmv_cost_table_count || t >= TABLES_MAX || i >= tmv_kernel_count || i >= TMV_COST_KERNELS_MAX ||
        row_of[t][i] < 0)
        return NULL;
    return &table->profiles[row_of[t][i]];
}

double tmv_cost_compute_ns(const tmv_cost_profile *p, tmv_cost_features f)
{
    return p->call_ns + p->block_ns * f.blocks + p->line_ns * f.lines + p->piece_ns * f.pieces + p->byte_ns * f.bytes;
}

/* The smallest cache level (3: DRAM) a working set fits in. The L3 counts
 * only up to the working set the stream threshold leaves in cache (twice
 * the threshold: a copy's source and destination): the L3 a CPU reports is
 * the socket's (260 MiB on a 2-core Intel Xeon VM, where a 64 MiB copy
 * moved 7-15 B/ns, not the 56 of a cache), and past the threshold the
 * kernels that stream send their output to DRAM anyway. */
static unsigned level_of(double working_set, const tmv_tuning *tuning)
{
    const double l3_share = 2.0 * (double)tuning->stream_threshold;
    unsigned level = 0;
    while (level < 3 && !(tuning->cache_bytes[level] != 0 && working_set <= (double)tuning->cache_bytes[level] &&
                          (level < 2 || working_set <= l3_share)))
        level++;
    return level;
}

double tmv_cost_memory_ns(double bytes, double working_set, const tmv_tuning *tuning)
{
    return bytes / copy_bytes_per_ns[level_of(working_set, tuning)];
}

double tmv_cost_floor_ns(double bytes, double traffic, double working_set, const tmv_tuning *tuning, bool streamed)
{
    if (level_of(working_set, tuning) < 3)
        return tmv_cost_memory_ns(traffic / 2, working_set, tuning);
    if (!streamed)   /* each line written is read first: its traffic once more */
        return tmv_cost_memory_ns((traffic + bytes) / 2, working_set, tuning);
    return tmv_cost_memory_ns(table_or_default(tuning->cost_table)->dram_writes_faster ? traffic / 2 : bytes,
                              working_set, tuning);
}

bool tmv_cost_streams(const tmv_kernel *k, const void *shape, double bytes, const tmv_tuning *tuning)
{
    if (bytes < (double)tuning->stream_threshold)
        return false;
    switch (k->stores) {
    case TMV_STORES_STREAMED: return true;
    case TMV_STORES_BY_SHAPE:
        if (tmv_primitive_copies(k->primitive))
            return k->fn.copy.streams(shape);
        return k->primitive == TMV_PRIMITIVE_JOIN_ROWS ? k->fn.join_rows.streams(shape)
                                                       : k->fn.split_rows.streams(shape);
    default: return false;
    }
}

double tmv_cost_estimate(const tmv_kernel *k, tmv_cost_features f, double traffic, double working_set,
                         const tmv_tuning *tuning, bool streamed)
{
    const tmv_cost_profile *p = tmv_cost_profile_in(tuning->cost_table, k);
    if (p == NULL)
        return -1;
    const double compute = tmv_cost_compute_ns(p, f);
    const double memory = tmv_cost_floor_ns(f.bytes, traffic, working_set, tuning, streamed);
    return compute > memory ? compute : memory;
}

double tmv_cost_working_set(tmv_primitive p, const void *shape, tmv_cost_features f)
{
    if (!tmv_primitive_copies(p))
        return 2 * f.bytes;
    const double src = (double)tmv_shape_source_extent(shape);
    return f.bytes + (src < f.bytes ? src : f.bytes);
}

/* The tuning record a shape of primitive p points to. */
static const tmv_tuning *tuning_of(tmv_primitive p, const void *shape)
{
    if (tmv_primitive_copies(p))
        return ((const tmv_copy_shape *)shape)->tuning;
    if (p == TMV_PRIMITIVE_JOIN_ROWS || p == TMV_PRIMITIVE_SPLIT_ROWS)
        return ((const tmv_rows_shape *)shape)->tuning;
    return NULL;
}

double tmv_cost_of_within(const tmv_kernel *k, const void *shape, double plan_working_set)
{
    tmv_cost_features f;
    const tmv_tuning *tuning = tuning_of(k->primitive, shape);
    if (tuning == NULL || !tmv_cost_kernel_features(k, shape, &f))
        return -1;
    const double traffic = tmv_cost_working_set(k->primitive, shape, f);
    return tmv_cost_estimate(k, f, traffic, plan_working_set > 0 ? plan_working_set : traffic, tuning,
                             tmv_cost_streams(k, shape, f.bytes, tuning));
}

double tmv_cost_of(const tmv_kernel *k, const void *shape)
{
    return tmv_cost_of_within(k, shape, 0);
}

unsigned tmv_cost_choice(const double *ns, unsigned n)
{
    if (n == 0 || ns[0] < 0)
        return 0;
    unsigned best = 0;
    for (unsigned i = 1; i < n; i++)
        if (ns[i] >= 0 && ns[i] < ns[best])
            best = i;
    if (!(ns[best] < TMV_COST_SWITCH_RATIO * ns[0]))
        return 0;
    for (unsigned i = 1; i < best; i++)   /* the first of those tied with it */
        if (ns[i] >= 0 && ns[i] <= TMV_COST_TIE_RATIO * ns[best])
            return i;
    return best;
}

const tmv_kernel *tmv_cost_choose(const tmv_kernel *const *accepting, unsigned n, const void *shape)
{
    double ns[TMV_COST_CANDIDATES_MAX];
    if (n == 0)
        return NULL;
    if (n > TMV_COST_CANDIDATES_MAX)
        n = TMV_COST_CANDIDATES_MAX;
    for (unsigned i = 0; i < n; i++)
        ns[i] = tmv_cost_of(accepting[i], shape);
    return accepting[tmv_cost_choice(ns, n)];
}
