/* tuning.c - the tuning record: CPU-derived defaults and the validated TENSORMOVE_* tunables. */
#include "tuning.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_tables.h"
#include "error.h"

/* Parses a whole unsigned number (decimal, 0x hex or 0 octal) in [lo, hi]
 * from the variable; TMV_OK leaves *value alone when it is unset or empty. */
static tmv_status parse_tunable(const char *variable, uint64_t lo, uint64_t hi, uint64_t *value)
{
    const char *text = getenv(variable);
    if (text == NULL || text[0] == '\0')
        return TMV_OK;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (text[0] == '-' || text[0] == '+' || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s is \"%s\", which is not a whole number from %llu to %llu; unset it "
                        "or fix it", variable, text, (unsigned long long)lo, (unsigned long long)hi);
    *value = v;
    return TMV_OK;
}

/* The table TENSORMOVE_COST_TABLE names into *table; TMV_OK leaves it
 * alone when the variable is unset or empty. */
static tmv_status parse_cost_table(const tmv_cost_table **table)
{
    const char *text = getenv("TENSORMOVE_COST_TABLE");
    if (text == NULL || text[0] == '\0')
        return TMV_OK;
    const tmv_cost_table *named = tmv_cost_table_named(text);
    if (named == NULL) {
        char names[256] = "";
        for (unsigned i = 0; i < tmv_cost_table_count; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"", i ? ", " : "",
                     tmv_cost_tables[i].name);
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "TENSORMOVE_COST_TABLE is \"%s\", which names no cost table (there are %s); "
                        "unset it or fix it", text, names);
    }
    *table = named;
    return TMV_OK;
}

tmv_status tmv_tuning_resolve(tmv_tuning *out, const uint64_t cache_bytes[3], const tmv_cost_table *cpu_table)
{
    for (int l = 0; l < 2; l++)
        out->cache_bytes[l] = cache_bytes[l];
    out->cache_bytes[2] = cache_bytes[2] != 0 ? cache_bytes[2] : TMV_L3_ASSUMED;
    uint64_t threshold = TMV_STREAM_THRESHOLD_MAX;
    if (out->cache_bytes[2] / 2 < threshold)
        threshold = out->cache_bytes[2] / 2;
    uint64_t prefetch = 16, task_min = TMV_TASK_MIN_BYTES_DEFAULT;
    /* the first malformed variable is the one the message names */
    tmv_status status = parse_tunable("TENSORMOVE_STREAM_THRESHOLD", 1, (uint64_t)1 << 63, &threshold);
    if (status == TMV_OK)
        status = parse_tunable("TENSORMOVE_GATHER_PREFETCH", 0, TMV_GATHER_PREFETCH_MAX, &prefetch);
    if (status == TMV_OK)
        status = parse_tunable("TENSORMOVE_TASK_MIN_BYTES", 1, (uint64_t)1 << 40, &task_min);
    const tmv_cost_table *table = cpu_table;
    if (status == TMV_OK)
        status = parse_cost_table(&table);
    out->stream_threshold = threshold;
    out->gather_prefetch = (uint32_t)prefetch;
    out->task_min_bytes = task_min;
    out->cost_table = table;
    return status;
}
