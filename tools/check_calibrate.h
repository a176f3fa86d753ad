/* check_calibrate.h - tmv-check-kernels --calibrate: each kernel's cost
 * profile (src/cost.h) fitted to its times on a sample of the step shapes it
 * accepts, and written as a table of src/cost_tables/. The times are
 * --bench's (check_bench.h): the same timing fills both samples. */
#ifndef TMV_CHECK_CALIBRATE_H
#define TMV_CHECK_CALIBRATE_H

#include <stdbool.h>

#include "casegen.h"
#include "check_bench.h"
#include "cost.h"

/* Shapes timed per kernel at most (512: with 128, two seeds fitted byte costs
 * of 0.014 and 0.034 ns to transpose_small), and the fewest a profile is fitted to. */
#define CK_CALIBRATION_SHAPES 512
#define CK_CALIBRATION_MIN_SHAPES 8

/* One kernel's sample: the features of each shape timed and its time. */
typedef struct ck_calibration {
    ck_reservoir      sample;
    tmv_cost_features features[CK_CALIBRATION_SHAPES];
    double            ns[CK_CALIBRATION_SHAPES];
} ck_calibration;

/* ck_reservoir_put for the sample (offered with ck_reservoir_offer, capacity
 * CK_CALIBRATION_SHAPES), with the shape's features and its nanoseconds per
 * call. */
void ck_calibration_put(ck_calibration *c, unsigned slot, tmv_cost_features f, double ns);

/* Fits a profile to each sample (samples: one per registry row) of
 * CK_CALIBRATION_MIN_SHAPES shapes or more, prints the fit of every sample
 * offered a shape to stdout, and writes a row per fitted kernel, in registry
 * order, to path (through path.tmp, so a failed run leaves the old file),
 * under a header naming the command line (argv), the date and the CPU.
 * With `selected` (NULL: every kernel was timed), only the kernels it marks
 * (one flag per registry row) are refitted (one too few shapes reached
 * keeps its row): the other rows of the table
 * already at path are kept as they are, since two runs on a VM price the
 * same kernel up to 1.35x apart and a whole new table moves plans that
 * have nothing to do with the kernels being calibrated. The rows written
 * are the fits times `scale` (1: as timed; a kernel timed on a machine
 * other than the table's is scaled to the table's prices).
 * false, after a message to stderr, when the file could not be written. */
bool ck_calibration_write(const ck_calibration *samples, const bool *selected, double scale, const char *path,
                          int argc, char *const *argv);

#endif
