/* casegen_directed.h - directed operator cases: the geometries kernels need
 * (many equal short JOIN/SPLIT pieces, pieces of 4 KiB and more, TILE periods
 * of 1..64 bytes and more, SPACE_TO_DEPTH/DEPTH_TO_SPACE over long rows,
 * transposed inputs, GATHER_ND rows and single elements) that random cases,
 * capped at 4096 elements, rarely or never make.
 *
 * Each family is a numbered list of geometries; a case is one geometry with
 * data (and, for GATHER_ND, in-range, bad or clamped indices) drawn from a
 * seed. The cases are ordinary cg_case objects (casegen.h): guard-paged,
 * read-only inputs, printable with cg_case_print, freed with cg_case_free.
 * The families name no kernel: they only sweep operator geometry. */
#ifndef TMV_CASEGEN_DIRECTED_H
#define TMV_CASEGEN_DIRECTED_H

#include <stdint.h>

#include "casegen.h"

/* How many families there are, and each one's name ("rows", "tile", ...). */
uint32_t cg_directed_family_count(void);
const char *cg_directed_family_name(uint32_t family);

/* How many geometries a family has (0 for no such family). */
uint64_t cg_directed_geometry_count(uint32_t family);

/* Builds geometry `geometry` of `family` with data from `seed`, which also
 * becomes the case's seed (cg_case_print shows it). The same triple always
 * gives the same case. NULL when out of memory or out of range. */
cg_case *cg_directed_case_new(uint32_t family, uint64_t geometry, uint64_t seed);

#endif
