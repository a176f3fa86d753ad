/* tool_args.h - the start of the command line that tmv-verify and tmv-check-kernels share. */
#ifndef TMV_TOOL_ARGS_H
#define TMV_TOOL_ARGS_H

#include <string.h>

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

#endif
