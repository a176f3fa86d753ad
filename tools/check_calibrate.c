/* check_calibrate.c - the kernels' cost profiles fitted to their times, for tmv-check-kernels --calibrate (check_calibrate.h). */
#define _POSIX_C_SOURCE 200809L /* localtime_r */
#include "check_calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ck_calibration_put(ck_calibration *c, unsigned slot, tmv_cost_features f, double ns)
{
    c->features[slot] = f;
    c->ns[slot] = ns;
    ck_reservoir_put(&c->sample, slot);
}

/* ---- the fit ---- */

/* A profile's terms, in tmv_cost_profile's order: per call, block, line, piece, byte. */
#define TERMS 5

static void terms_of(tmv_cost_features f, double x[TERMS])
{
    x[0] = 1;
    x[1] = f.blocks;
    x[2] = f.lines;
    x[3] = f.pieces;
    x[4] = f.bytes;
}

/* The normal equations of the least squared relative error: a shape's
 * relative error (x.c - ns) / ns is (x / ns).c - 1, so each shape is a row
 * z = x / ns with target 1. The features span ten decades, so column j is
 * divided by its norm scale[j]: the matrix has a unit diagonal, and the
 * profile is the solution divided by scale. */
typedef struct normal_equations {
    double a[TERMS][TERMS], b[TERMS], scale[TERMS];
} normal_equations;

static void normal_equations_of(const ck_calibration *c, normal_equations *ne)
{
    memset(ne, 0, sizeof *ne);
    for (unsigned i = 0; i < c->sample.filled; i++) {
        double z[TERMS];
        terms_of(c->features[i], z);
        for (unsigned j = 0; j < TERMS; j++) {
            z[j] /= c->ns[i];
            ne->b[j] += z[j];
            for (unsigned k = 0; k <= j; k++)
                ne->a[j][k] += z[j] * z[k];
        }
    }
    for (unsigned j = 0; j < TERMS; j++)
        ne->scale[j] = ne->a[j][j] > 0 ? sqrt(ne->a[j][j]) : 1; /* an all-zero column stays one */
    for (unsigned j = 0; j < TERMS; j++) {
        ne->b[j] /= ne->scale[j];
        for (unsigned k = 0; k <= j; k++)
            ne->a[k][j] = ne->a[j][k] /= ne->scale[j] * ne->scale[k];
    }
}

/* Below this pivot (of a unit-diagonal matrix) a column is a combination of
 * the columns before it: all shapes of one line, or of one element size
 * (pieces in proportion to bytes). */
#define DEPENDENT_PIVOT 1e-10

/* Solves the equations of the active columns (the others' unknowns are 0)
 * into x by Gaussian elimination with partial pivoting: -1, or the first
 * active column that depends on the active ones before it (x unset). */
static int solve(const normal_equations *ne, const bool active[TERMS], double x[TERMS])
{
    unsigned col[TERMS], n = 0;
    for (unsigned j = 0; j < TERMS; j++)
        if (active[j])
            col[n++] = j;
    double m[TERMS][TERMS + 1];
    for (unsigned r = 0; r < n; r++) {
        for (unsigned k = 0; k < n; k++)
            m[r][k] = ne->a[col[r]][col[k]];
        m[r][n] = ne->b[col[r]];
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned pivot = k;
        for (unsigned r = k + 1; r < n; r++)
            if (fabs(m[r][k]) > fabs(m[pivot][k]))
                pivot = r;
        if (fabs(m[pivot][k]) < DEPENDENT_PIVOT)
            return (int)col[k];
        for (unsigned c = k; c <= n; c++) {
            const double t = m[k][c];
            m[k][c] = m[pivot][c];
            m[pivot][c] = t;
        }
        for (unsigned r = k + 1; r < n; r++) {
            const double factor = m[r][k] / m[k][k];
            for (unsigned c = k; c <= n; c++)
                m[r][c] -= factor * m[k][c];
        }
    }
    memset(x, 0, TERMS * sizeof *x);
    for (unsigned k = n; k-- > 0;) {
        double v = m[k][n];
        for (unsigned c = k + 1; c < n; c++)
            v -= m[k][c] * x[col[c]];
        x[col[k]] = v / m[k][k];
    }
    return -1;
}

/* The profile of least squared relative error with no negative price: solve;
 * while a column depends on those before it, or a price comes out negative
 * (the most negative), fix it at 0 and solve the rest again. */
static tmv_cost_profile fit(const char *kernel, const ck_calibration *c)
{
    normal_equations ne;
    normal_equations_of(c, &ne);
    bool active[TERMS] = {true, true, true, true, true};
    double x[TERMS];
    for (;;) {
        const int dependent = solve(&ne, active, x);
        if (dependent >= 0) {
            active[dependent] = false;
            continue;
        }
        int worst = -1;
        for (int j = 0; j < TERMS; j++)
            if (active[j] && x[j] < 0 && (worst < 0 || x[j] < x[worst]))
                worst = j;
        if (worst < 0)
            break;
        active[worst] = false;
    }
    return (tmv_cost_profile){kernel, x[0] / ne.scale[0], x[1] / ne.scale[1], x[2] / ne.scale[2],
                              x[3] / ne.scale[3], x[4] / ne.scale[4]};
}

/* A kernel's fit and how far it misses its sample. */
typedef struct kernel_fit {
    bool             fitted;
    tmv_cost_profile profile;
    double           median_error, p90_error;   /* |fit - time| / time */
} kernel_fit;

static kernel_fit fit_kernel(const char *kernel, const ck_calibration *c)
{
    kernel_fit kf = {.fitted = true, .profile = fit(kernel, c)};
    double error[CK_CALIBRATION_SHAPES];
    for (unsigned i = 0; i < c->sample.filled; i++)
        error[i] = fabs(tmv_cost_compute_ns(&kf.profile, c->features[i]) - c->ns[i]) / c->ns[i];
    kf.median_error = ck_quantile(error, c->sample.filled, 0.5);
    kf.p90_error = ck_quantile(error, c->sample.filled, 0.9);
    return kf;
}

/* Fits every sample that has enough shapes into fits[] (registry order) and
 * prints the report; returns how many it fitted. */
static unsigned fit_all(const ck_calibration *samples, kernel_fit *fits)
{
    unsigned fitted = 0;
    printf("\ncalibration: cost profiles (src/cost.h) fitted to each kernel's times on a sample of up to %d\n"
           "of the shapes it accepted under the no-stream record: ns = call + block * blocks + line * lines\n"
           "+ piece * pieces + byte * bytes, least squared relative error; error = |fit - time| / time over\n"
           "the sample.\n",
           CK_CALIBRATION_SHAPES);
    printf("  %-34s %6s %10s %10s %10s %10s %10s %7s %7s\n", "kernel", "shapes", "call ns", "block ns", "line ns",
           "piece ns", "byte ns", "median", "p90");
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const ck_calibration *c = &samples[i];
        if (c->sample.offered == 0)
            continue;
        if (c->sample.filled < CK_CALIBRATION_MIN_SHAPES) {
            printf("  %-34s %6u   too few shapes: no row\n", tmv_kernels[i].name, c->sample.filled);
            continue;
        }
        const kernel_fit kf = fits[i] = fit_kernel(tmv_kernels[i].name, c);
        printf("  %-34s %6u %10.4g %10.4g %10.4g %10.4g %10.4g %6.1f%% %6.1f%%\n", kf.profile.kernel,
               c->sample.filled, kf.profile.call_ns, kf.profile.block_ns, kf.profile.line_ns, kf.profile.piece_ns,
               kf.profile.byte_ns, 100 * kf.median_error, 100 * kf.p90_error);
        fitted++;
    }
    return fitted;
}

/* ---- the table ---- */

/* /proc/cpuinfo's first "model name" with its family and model ("AMD EPYC,
 * family 26, model 2": a cost table is chosen by family), or "unknown CPU". */
static void cpu_name(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[256], name[160] = "", family[16] = "", model[16] = "";
    while (fgets(line, sizeof line, f) != NULL && !(name[0] && family[0] && model[0])) {
        char *value = strchr(line, ':');
        if (value == NULL)
            continue;
        value += 1 + strspn(value + 1, " \t");
        value[strcspn(value, "\n")] = '\0';
        if (strncmp(line, "model name", 10) == 0 && !name[0])
            snprintf(name, sizeof name, "%s", value);
        else if (strncmp(line, "cpu family", 10) == 0 && !family[0])
            snprintf(family, sizeof family, "%s", value);
        else if (strncmp(line, "model\t", 6) == 0 && !model[0])
            snprintf(model, sizeof model, "%s", value);
    }
    fclose(f);
    if (name[0])
        snprintf(out, size, "%s%s%s%s%s", name, family[0] ? ", family " : "", family, model[0] ? ", model " : "",
                 model);
}

/* The command line, the date and the CPU: "`cmd args` on DATE, on CPU". */
static void write_run(FILE *f, int argc, char *const *argv)
{
    char cpu[256], date[32];
    const time_t now = time(NULL);
    struct tm local;
    cpu_name(cpu, sizeof cpu);
    strftime(date, sizeof date, "%Y-%m-%d", localtime_r(&now, &local));
    const char *slash = strrchr(argv[0], '/');
    fprintf(f, "`%s", slash != NULL ? slash + 1 : argv[0]);
    for (int i = 1; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "` on %s, on %s", date, cpu);
}

/* The header of the table at old (named by its file name), with a line
 * saying how, when and where; when some rows are refitted (`refitted`:
 * their kernels) the old table's header is kept and the run added to it. */
static void write_header(FILE *f, const char *old, const char *refitted, int argc, char *const *argv)
{
    FILE *o = refitted != NULL ? fopen(old, "r") : NULL;
    char line[4096];   /* a line longer than this reaches here in pieces: the end is found in the last */
    bool kept = false;
    while (o != NULL && fgets(line, sizeof line, o) != NULL && strncmp(line, "TMV_COST(", 9) != 0) {
        char *end = strstr(line, "*/");
        if (end != NULL) {
            if (end > line && end[-1] == ' ')
                end--;
            strcpy(end, "\n");   /* the comment goes on below */
        }
        fputs(line, f);
        kept = true;
        if (end != NULL)
            break;
    }
    if (o != NULL)
        fclose(o);
    if (kept) {
        fprintf(f, " * Then ");
        write_run(f, argc, argv);
        fprintf(f, " refitted %s. */\n", refitted);
        return;
    }
    const char *slash = strrchr(old, '/');
    fprintf(f, "/* %s - the kernels' cost profiles (cost.h), fitted on one machine.\n"
               " * Written by `tmv-check-kernels --calibrate=src/cost_tables/NAME.inc`; do\n"
               " * not edit by hand. src/cost_tables.c says which CPUs a table is for. A\n"
               " * kernel with no row here is not rated: the planner keeps the registry's\n"
               " * order for it.\n"
               " * This one was written by ", slash != NULL ? slash + 1 : old);
    write_run(f, argc, argv);
    fprintf(f, ". */\n");
}

/* The row of kernel `name` in the table at path ("TMV_COST(\"name\", ...)",
 * newline included) into row; false when the file or the row is missing. */
static bool kept_row(const char *path, const char *name, char *row, size_t size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char prefix[128];
    snprintf(prefix, sizeof prefix, "TMV_COST(\"%s\",", name);
    bool found = false;
    while (!found && fgets(row, (int)size, f) != NULL)
        found = strncmp(row, prefix, strlen(prefix)) == 0;
    fclose(f);
    return found;
}

/* The header, then in registry order each fitted kernel's new row and,
 * when only `selected` kernels were timed, the old row of each other one
 * (and of a selected one too few shapes reached to fit). */
static bool write_table(const char *path, const char *old, const kernel_fit *fits, const bool *selected,
                        double scale, int argc, char *const *argv)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    char refitted[2048] = "";
    for (unsigned i = 0; selected != NULL && i < tmv_kernel_count; i++)
        if (selected[i] && strlen(refitted) + strlen(tmv_kernels[i].name) + 3 < sizeof refitted)
            snprintf(refitted + strlen(refitted), sizeof refitted - strlen(refitted), "%s%s", *refitted ? ", " : "",
                     tmv_kernels[i].name);
    write_header(f, old, selected != NULL ? refitted : NULL, argc, argv);
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        char row[512];
        if (fits[i].fitted && (selected == NULL || selected[i]))
            fprintf(f, "TMV_COST(\"%s\", %.4g, %.4g, %.4g, %.4g, %.4g)\n", fits[i].profile.kernel,
                    scale * fits[i].profile.call_ns, scale * fits[i].profile.block_ns,
                    scale * fits[i].profile.line_ns, scale * fits[i].profile.piece_ns,
                    scale * fits[i].profile.byte_ns);
        else if (selected != NULL && kept_row(old, tmv_kernels[i].name, row, sizeof row))
            fputs(row, f);
    }
    const bool written = !ferror(f);
    return fclose(f) == 0 && written;
}

bool ck_calibration_write(const ck_calibration *samples, const bool *selected, double scale, const char *path,
                          int argc, char *const *argv)
{
    kernel_fit *fits = calloc(tmv_kernel_count, sizeof *fits);
    char *tmp = malloc(strlen(path) + sizeof ".tmp");
    if (fits == NULL || tmp == NULL) {
        fprintf(stderr, "tmv-check-kernels: out of memory fitting the cost profiles\n");
        free(tmp);
        free(fits);
        return false;
    }
    sprintf(tmp, "%s.tmp", path);
    const unsigned fitted = fit_all(samples, fits);
    const bool ok = write_table(tmp, path, fits, selected, scale, argc, argv) && rename(tmp, path) == 0;
    if (ok) {
        printf("calibration: %u profiles written to %s\n", fitted, path);
    } else {
        fprintf(stderr, "tmv-check-kernels: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(fits);
    return ok;
}
