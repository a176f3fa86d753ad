/* context.c - the report header: tensormove version, kernel sets, CPU model, what the numbers mean. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "context.h"
#include "tensormove.h"

int bench_available_isas(int *isas, int max) {
    tmv_isa sets[64];
    const uint32_t count = tmv_isa_list(sets, 64);
    int n = 0;
    for (uint32_t i = 0; i < count && i < 64 && n < max; ++i) isas[n++] = (int)sets[i];
    return n;
}

/* "model name (family F, model M)" from /proc/cpuinfo; "unknown" elsewhere. */
static void cpu_model(char *buf, size_t size) {
    char line[512], name[256] = "unknown", family[32] = "?", model[32] = "?";
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, size, "unknown");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *value = colon + 1 + (colon[1] == ' ');
        value[strcspn(value, "\n")] = '\0';
        if (!strncmp(line, "model name", 10) && !strcmp(name, "unknown")) snprintf(name, sizeof name, "%s", value);
        else if (!strncmp(line, "cpu family", 10) && family[0] == '?') snprintf(family, sizeof family, "%s", value);
        else if (!strncmp(line, "model\t", 6) && model[0] == '?') snprintf(model, sizeof model, "%s", value);
    }
    fclose(f);
    snprintf(buf, size, "%s (family %s, model %s)", name, family, model);
}

void bench_add_context(void) {
    char buf[512];
    int isas[64];
    const int n = bench_available_isas(isas, 64);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < sizeof buf; ++i)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? "," : "", tmv_isa_name((tmv_isa)isas[i]));
    tmvb_add_context("tensormove_version", tmv_version());
    tmvb_add_context("tensormove_isas", buf);
    tmvb_add_context("tensormove_default_isa", tmv_isa_name(tmv_get_isa()) ? tmv_isa_name(tmv_get_isa()) : "?");
    tmvb_add_context("tensormove_cost_table", tmv_cost_table_name());
    cpu_model(buf, sizeof buf);
    tmvb_add_context("cpu_model", buf);
    tmvb_add_context("sizes", "output bytes: L1 16 KiB, L2 512 KiB, DRAM 64 MiB");
    tmvb_add_context("metrics", "bytes_per_second = (bytes read + bytes written) / CPU time; "
                                "x_memcpy = memcpy time of the output bytes / case time, the median over 5 rounds of 0.5 ms slices alternating with the case's; x_best_copy = the same with the faster of memcpy and a streaming copy; x_pieces, x_loop, x_bound timed the same way; "
                                "rows named @Tt: on T threads, wall-clock time, copies split over the same T threads, speedup = one-thread wall time / this one");
}
