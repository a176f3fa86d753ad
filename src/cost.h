/* cost.h - the planner's cost model: what a kernel is expected to take on a step's shape.
 *
 * A step's shape is described by five numbers (tmv_cost_features): one
 * call; its blocks (the positions of a copy's dims outside its two innermost,
 * where kernels that work on a 2-D block -- transposes, interleaves, fills --
 * start one; 1 for a rows step); its lines (the runs of a copy's inner dim,
 * the rows of a row-wise JOIN/SPLIT); its pieces (the smallest units it
 * moves: a copy's elements, a rows step's piece rows) and its bytes. A
 * kernel whose work these do not follow (a permute's blocks are cut to
 * the windows it loads) is registered priced and counts its own blocks,
 * lines and pieces. A kernel's cost profile prices each
 * (tmv_cost_profile); they are fitted to times of every kernel on the
 * shapes it accepts, in cache, on one machine
 * (`tmv-check-kernels --calibrate`, which writes a table of
 * src/cost_tables/), a table per microarchitecture (cost_tables.h). The
 * estimate is that sum, but never less than moving the step's traffic at the
 * copy bandwidth of the cache level it fits in (tmv_cost_floor_ns): no
 * kernel copies faster than memory does. docs/ARCHITECTURE.md ("The cost model") says how
 * the planner uses it. */
#ifndef TMV_COST_H
#define TMV_COST_H

#include <stdbool.h>

#include "kernels.h"
#include "tuning.h"

/* Nanoseconds per call, per block, per line, per piece and per byte. */
typedef struct tmv_cost_profile {
    const char *kernel;   /* its registry name, "<variant>/<set>" */
    double call_ns, block_ns, line_ns, piece_ns, byte_ns;
} tmv_cost_profile;

/* The features of a copy-family shape (normalized) and of a rows shape. */
tmv_cost_features tmv_cost_copy_features(const tmv_copy_shape *s);
tmv_cost_features tmv_cost_rows_features(const tmv_rows_shape *s);
/* The features of a shape of primitive p; false for a GATHER shape (gathers
 * are not rated: their time is the table's latency, not the kernel's). */
bool tmv_cost_features_of(tmv_primitive p, const void *shape, tmv_cost_features *out);

/* The features kernel k is priced on for `shape` (of its primitive, or a
 * copy shape for the copy family): tmv_cost_features_of's, with the
 * kernel's own counts for a priced row (kernels.h, TMV_KERNEL_PRICED). The
 * planner and the calibration both take them from here. */
bool tmv_cost_kernel_features(const tmv_kernel *k, const void *shape, tmv_cost_features *out);

/* Kernel k's row in a fitted table (cost_tables.h; NULL: the default
 * table), k one of the first TMV_COST_KERNELS_MAX rows of the registry;
 * NULL when the table has none (a kernel set not calibrated, such as NEON,
 * or a kernel newer than the table). The planner prices by the table its
 * shape's tuning record names. */
#define TMV_COST_KERNELS_MAX 512
struct tmv_cost_table;
const tmv_cost_profile *tmv_cost_profile_in(const struct tmv_cost_table *table, const tmv_kernel *k);

/* What the profile prices the features at, in nanoseconds, before the
 * memory floor. */
double tmv_cost_compute_ns(const tmv_cost_profile *p, tmv_cost_features f);

/* The least a copy of `bytes` output bytes takes whose source and
 * destination together span working_set bytes: those bytes at the best copy
 * bandwidth of the smallest cache level (tuning->cache_bytes) the working
 * set fits in, or of DRAM; the L3 holds at most twice the stream
 * threshold (a working set the threshold's output makes). */
double tmv_cost_memory_ns(double bytes, double working_set, const tmv_tuning *tuning);

/* The least a step of `bytes` output bytes takes that reads and writes
 * `traffic` bytes (tmv_cost_working_set's) within working_set bytes: in a
 * cache, its traffic at the copy bandwidth of that level, counted as a copy
 * of traffic / 2 bytes, so a step that reads little (a broadcast) is
 * floored below a copy of its output (TILE 3d of a 4x1 u16 tensor by
 * 2x2x2 at 1 MiB, an L3 working set: one vpermb per output vector writes
 * at 116 B/ns against the level's copy rate of 56). In DRAM it depends on
 * the stores (tmv_cost_streams): `streamed`, a copy of its output bytes, or
 * its traffic as in a cache where the tuning record's cost table says
 * streaming stores write DRAM faster than a copy moves it
 * (dram_writes_faster, cost_tables.h); plain stores read each line before
 * they write it, so their floor is the traffic plus the output once more,
 * as a copy of half that: a copy 1.5x a streamed one's, a broadcast a copy
 * of its output (Intel Xeon VM, 64 MiB: glibc memcpy 9.1-10 ms against a
 * streaming copy's 4.2-5.9; JOIN of 3x16-byte pieces 10.6 ms by the byte
 * permutes' plain stores, 4.7 by the lines kernel's streaming ones). */
double tmv_cost_floor_ns(double bytes, double traffic, double working_set, const tmv_tuning *tuning, bool streamed);

/* Whether kernel k writes `shape` (`bytes` output bytes) with streaming
 * stores: past the stream threshold, a row whose stores are `streams`, or
 * `streams_if` and its hook says so (kernels.h, tmv_stores). */
bool tmv_cost_streams(const tmv_kernel *k, const void *shape, double bytes, const tmv_tuning *tuning);

/* The estimate for kernel k on shape features f: the profile's compute,
 * floored by tmv_cost_floor_ns; a negative value when k has no profile. */
double tmv_cost_estimate(const tmv_kernel *k, tmv_cost_features f, double traffic, double working_set,
                         const tmv_tuning *tuning, bool streamed);

/* The bytes a step's source and destination span together: the
 * destination's bytes and at most as many of the source (a fill reads one
 * element per row, a copy as many as it writes). */
double tmv_cost_working_set(tmv_primitive p, const void *shape, tmv_cost_features f);

/* The estimate for kernel k on `shape` (of k's primitive, or a copy shape
 * for a kernel of the copy family), under the shape's tuning record; a
 * negative value when the model cannot rate it: a gather, or no profile
 * for k. Steps past the stream threshold are rated too: in DRAM a kernel
 * that streams the step is floored below one whose plain stores read each
 * line first, and kernels bound by memory with the same stores tie, so the
 * registry's order keeps them, while a first choice whose compute alone
 * takes longer loses to one that does not. */
double tmv_cost_of(const tmv_kernel *k, const void *shape);

/* The same for one of a plan's steps that run one after another over the
 * same tensors, priced within the plan's whole working set (plan_working_set
 * bytes; 0: the shape's own, as tmv_cost_of) rather than its own: a JOIN's eight piece copies of 128 KiB
 * each do not each find an empty L2. */
double tmv_cost_of_within(const tmv_kernel *k, const void *shape, double plan_working_set);

/* Given the estimates of n candidates in the registry's order of
 * preference (negative: not rated), the index of the one to run: the
 * cheapest if its estimate is below TMV_COST_SWITCH_RATIO times the
 * first's (of those within TMV_COST_TIE_RATIO of it, the first in the
 * registry's order), else 0 (also when the first is not rated). */
unsigned tmv_cost_choice(const double *ns, unsigned n);

/* Of the n (at most TMV_COST_CANDIDATES_MAX) kernels that accept `shape`,
 * in the registry's order of preference, the one the planner runs
 * (tmv_cost_choice of their estimates); NULL when n is 0. */
#define TMV_COST_CANDIDATES_MAX 64
const tmv_kernel *tmv_cost_choose(const tmv_kernel *const *accepting, unsigned n, const void *shape);

/* A kernel other than the registry's first choice is taken only if its
 * estimate is below this fraction of the first choice's: the fit's own
 * spread (two calibrations price a kernel up to 1.2-1.35x apart, and a
 * profile misprices single shapes by more) must not flip a plan. */
#define TMV_COST_SWITCH_RATIO 0.75

/* Estimates within this factor of the cheapest tie: at 1 MiB and beyond
 * most candidates are rated at or just above the memory floor, and a
 * profile a fraction of a percent over it lost to a later set's by that
 * much (NHWC SPACE_TO_DEPTH, CRD, B8 C16 u8: transpose_groups/avx2 rated
 * 18725 ns and run, 83 us, against avx512's 18737 and 70 us). */
#define TMV_COST_TIE_RATIO 1.02

#endif
