/* tool_args.h - the command line that tmv-verify and tmv-check-kernels share, and the kernel sets this CPU runs. */
#ifndef TMV_TOOL_ARGS_H
#define TMV_TOOL_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sets.h"
#include "kernels.h"
#include "tensormove.h"

#define TOOL_MAX_ISAS 32

/* --help / -h and --list win over every other argument, wherever they stand. */
typedef enum tool_mode { TOOL_RUN, TOOL_HELP, TOOL_LIST } tool_mode;

static inline tool_mode tool_mode_of(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return TOOL_HELP;
        if (strcmp(argv[i], "--list") == 0)
            return TOOL_LIST;
    }
    return TOOL_RUN;
}

/* The kernel sets this CPU runs, ascending. */
typedef struct tool_isas {
    tmv_isa  list[TOOL_MAX_ISAS];
    uint32_t count;
} tool_isas;

static inline void tool_isas_of_cpu(tool_isas *s)
{
    const uint32_t all = tmv_isa_list(s->list, TOOL_MAX_ISAS);
    s->count = all < TOOL_MAX_ISAS ? all : TOOL_MAX_ISAS;
}

static inline bool tool_isa_runs(const tool_isas *s, int isa)
{
    for (uint32_t i = 0; i < s->count; i++)
        if ((int)s->list[i] == isa)
            return true;
    return false;
}

static inline int tool_isa_by_name(const char *name)
{
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (strcmp(tmv_kernel_sets[i].name, name) == 0)
            return (int)tmv_kernel_sets[i].isa;
    return -1;
}

/* A whole unsigned number (decimal, 0x hex or 0 octal); no sign. */
static inline bool tool_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return false;
    *v = strtoull(s, &end, 0);
    return *end == '\0';
}

/* The options both tools take. */
typedef struct tool_options {
    uint64_t seed;
    uint64_t iterations;
    int      isa;         /* --isa: only this set; -1 for all */
    bool     has_case;    /* --case: only the case with case_seed */
    uint64_t case_seed;
    bool     verbose;
} tool_options;

/* One argument `a` (with the one after it, v, or NULL) when it is a shared
 * option: how many it used (1 or 2), 0 when it is none of them, -1 (after a
 * message naming `tool`) when --isa names no set this CPU runs. */
static inline int tool_common_arg(const char *tool, const char *a, const char *v, tool_options *o,
                                  const tool_isas *isas)
{
    if (strcmp(a, "--verbose") == 0) {
        o->verbose = true;
        return 1;
    }
    if ((strcmp(a, "--seed") == 0 && tool_parse_u64(v, &o->seed)) ||
        (strcmp(a, "--iterations") == 0 && tool_parse_u64(v, &o->iterations)))
        return 2;
    if (strcmp(a, "--case") == 0 && tool_parse_u64(v, &o->case_seed)) {
        o->has_case = true;
        return 2;
    }
    if (strcmp(a, "--isa") == 0 && v != NULL) {
        o->isa = tool_isa_by_name(v);
        if (o->isa < 0 || !tool_isa_runs(isas, o->isa)) {
            fprintf(stderr, "%s: \"%s\" is no kernel set this CPU has (see --list)\n", tool, v);
            return -1;
        }
        return 2;
    }
    return 0;
}

/* A tool's own options, in tool_common_arg's terms; ctx is the tool's. */
typedef int (*tool_own_arg)(const char *a, const char *v, void *ctx);

/* What tool_start needs of a tool. */
typedef struct tool_desc {
    const char  *name;                 /* for messages */
    unsigned     max_kernels;          /* how many kernels it can count */
    void       (*usage)(FILE *f);
    void       (*list)(void);          /* --list */
    tool_own_arg own;                  /* its own options */
} tool_desc;

static inline bool tool_parse_args(const tool_desc *tool, int argc, char **argv, tool_options *o,
                                   void *ctx, const tool_isas *isas)
{
    for (int i = 1; i < argc;) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = tool_common_arg(tool->name, a, v, o, isas);
        if (used == 0)
            used = tool->own(a, v, ctx);
        if (used < 0)
            return false;
        if (used == 0) {
            fprintf(stderr, "%s: bad argument \"%s\"\n", tool->name, a);
            tool->usage(stderr);
            return false;
        }
        i += used;
    }
    return true;
}

/* Finds the sets this CPU runs (*isas), answers --help and --list, and reads
 * the command line: the shared options into *o, the tool's own through
 * tool->own with ctx. Returns the exit status when the tool is done (0 after
 * --help or --list, 2 on a bad command line), -1 when it goes on to run. */
static inline int tool_start(const tool_desc *tool, int argc, char **argv, tool_options *o, void *ctx,
                             tool_isas *isas)
{
    tool_isas_of_cpu(isas);
    if (tmv_kernel_count > tool->max_kernels) {
        fprintf(stderr, "%s: %u kernels, more than the %u it can count\n", tool->name, tmv_kernel_count,
                tool->max_kernels);
        return 2;
    }
    switch (tool_mode_of(argc, argv)) {
    case TOOL_HELP: tool->usage(stdout); return 0;
    case TOOL_LIST: tool->list(); return 0;
    case TOOL_RUN: break;
    }
    return tool_parse_args(tool, argc, argv, o, ctx, isas) ? -1 : 2;
}

#endif
