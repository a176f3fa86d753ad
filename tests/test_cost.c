/* test_cost.c - the planner's cost model (src/cost.h): shape features, a priced kernel's own, the memory floor, the choice rule, the table's coverage. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "cost_tables.h"
#include "test_util.h"

/* A copy of 3 x 4 x 5 elements of 2 bytes: 3 blocks of the two inner dims,
 * 12 runs of the inner dim, 60 elements, 120 bytes. */
Test(cost, copy_features_count_blocks_runs_elements_and_bytes)
{
    tmv_copy_shape s = {.rank = 3, .elem_bytes = 2, .sizes = {3, 4, 5}};
    const tmv_cost_features f = tmv_cost_copy_features(&s);
    cr_expect_eq(f.blocks, 3);
    cr_expect_eq(f.lines, 12);
    cr_expect_eq(f.pieces, 60);
    cr_expect_eq(f.bytes, 120);
    /* a single element (rank 0): one call, one line, one piece */
    tmv_copy_shape one = {.rank = 0, .elem_bytes = 48};
    const tmv_cost_features g = tmv_cost_copy_features(&one);
    cr_expect(g.blocks == 1 && g.lines == 1 && g.pieces == 1 && g.bytes == 48);
}

/* A JOIN of 7 rows of three pieces into 96-byte joined rows. */
Test(cost, rows_features_count_rows_piece_rows_and_bytes)
{
    const tmv_rows_piece pieces[3] = {{0, 32, 0, 32}, {1, 32, 32, 32}, {2, 32, 64, 32}};
    const tmv_rows_shape s = {.rows = 7, .joined_pitch = 96, .joined_bytes = 96, .piece_count = 3, .pieces = pieces};
    const tmv_cost_features f = tmv_cost_rows_features(&s);
    cr_expect(f.blocks == 1 && f.lines == 7 && f.pieces == 21 && f.bytes == 672);
}

/* A fill reads one element per row: its working set is about its output. */
Test(cost, working_set_counts_the_source_it_reads)
{
    tmv_copy_shape fill = {.rank = 2, .elem_bytes = 4, .sizes = {10, 100}};
    fill.src_strides[0] = 4, fill.src_strides[1] = 0;
    fill.dst_strides[0] = 400, fill.dst_strides[1] = 4;
    const tmv_cost_features f = tmv_cost_copy_features(&fill);
    cr_expect_eq(tmv_cost_working_set(TMV_PRIMITIVE_FILL, &fill, f), 4000 + 40);
    tmv_copy_shape copy = fill;
    copy.src_strides[0] = 400, copy.src_strides[1] = 4;
    cr_expect_eq(tmv_cost_working_set(TMV_PRIMITIVE_COPY, &copy, f), 8000);
}

/* Deeper cache levels are slower per byte; a working set no level holds is
 * priced at DRAM's rate, and a CPU reporting no caches prices all so. */
Test(cost, memory_floor_grows_with_the_level_the_working_set_needs)
{
    const tmv_tuning t = {.stream_threshold = 1 << 24, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
    const double l1 = tmv_cost_memory_ns(8192, 16 << 10, &t), l2 = tmv_cost_memory_ns(8192, 512 << 10, &t);
    const double l3 = tmv_cost_memory_ns(8192, 8 << 20, &t), dram = tmv_cost_memory_ns(8192, 64 << 20, &t);
    cr_expect(l1 > 0 && l1 < l2 && l2 < l3 && l3 < dram, "%g %g %g %g", l1, l2, l3, dram);
    const tmv_tuning none = {.stream_threshold = 1 << 23};
    cr_expect_eq(tmv_cost_memory_ns(8192, 16 << 10, &none), dram);
}

/* In a cache the floor is the step's traffic at the level's copy rate: a
 * copy (reads as much as it writes) floors at a copy of its output, a
 * broadcast that reads an eighth of it at 9/16 of that, whatever its
 * stores. In DRAM a streamed step floors at a copy of its output, unless
 * the cost table says streaming stores write DRAM faster there; plain
 * stores read each line first: a copy 1.5x a streamed one, a broadcast
 * that reads an eighth of its output 17/16 of a copy of it. */
Test(cost, floor_in_a_cache_counts_the_bytes_read_in_dram_the_bytes_written)
{
    const tmv_tuning t = {.stream_threshold = 1 << 24, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
    const double out = 1 << 20, copy_ws = 2 * out, broadcast_ws = out + out / 8;
    const double copy = tmv_cost_floor_ns(out, copy_ws, copy_ws, &t, true);
    cr_expect_eq(copy, tmv_cost_memory_ns(out, copy_ws, &t));
    cr_expect_eq(tmv_cost_floor_ns(out, copy_ws, copy_ws, &t, false), copy);
    const double broadcast = tmv_cost_floor_ns(out, broadcast_ws, broadcast_ws, &t, true);
    cr_expect(broadcast > 0.5624 * copy && broadcast < 0.5626 * copy, "%g ns against a copy's %g", broadcast, copy);
    const double dram_ws = 64.0 * (1 << 20);
    const double streamed = tmv_cost_floor_ns(out, 2 * out, dram_ws, &t, true);
    cr_expect_eq(streamed, tmv_cost_memory_ns(out, dram_ws, &t));
    cr_expect_eq(tmv_cost_floor_ns(out, 2 * out, dram_ws, &t, false), 1.5 * streamed);
    const double plain_broadcast = tmv_cost_floor_ns(out, out + out / 8, dram_ws, &t, false);
    cr_expect(plain_broadcast > 1.0624 * streamed && plain_broadcast < 1.0626 * streamed, "%g ns against %g",
              plain_broadcast, streamed);
    /* a table whose machine writes DRAM faster than it copies floors a
     * streamed step there by the traffic too */
    for (unsigned i = 0; i < tmv_cost_table_count; i++) {
        tmv_tuning with = t;
        with.cost_table = &tmv_cost_tables[i];
        const double expected = tmv_cost_memory_ns(tmv_cost_tables[i].dram_writes_faster ? out / 2 : out, dram_ws, &t);
        cr_expect_eq(tmv_cost_floor_ns(out, out, dram_ws, &with, true), expected, "%s", tmv_cost_tables[i].name);
        cr_expect_eq(tmv_cost_floor_ns(out, out, dram_ws, &with, false), streamed, "%s", tmv_cost_tables[i].name);
    }
    cr_expect(tmv_cost_table_named("zen5")->dram_writes_faster);
    cr_expect(tmv_cost_table_named("xeon")->dram_writes_faster);
    cr_expect_not(tmv_cost_table_default()->dram_writes_faster);
}

/* The L3 holds no more than twice the stream threshold: a CPU reporting
 * the socket's 260 MiB prices a 64 MiB copy as DRAM, and as L3 only when
 * the threshold leaves that much in cache. */
Test(cost, l3_holds_at_most_twice_the_stream_threshold)
{
    const tmv_tuning big = {.stream_threshold = 8 << 20, .cache_bytes = {48 << 10, 2 << 20, 260ull << 20}};
    const tmv_tuning unstreamed = {.stream_threshold = 1ull << 40, .cache_bytes = {48 << 10, 2 << 20, 260ull << 20}};
    const tmv_tuning none = {.stream_threshold = 8 << 20};
    const double ws = 128.0 * (1 << 20);
    cr_expect_eq(tmv_cost_memory_ns(8192, ws, &big), tmv_cost_memory_ns(8192, ws, &none));
    cr_expect_eq(tmv_cost_memory_ns(8192, 16 << 20, &big), tmv_cost_memory_ns(8192, 4 << 20, &big));
    cr_expect_lt(tmv_cost_memory_ns(8192, ws, &unstreamed), tmv_cost_memory_ns(8192, ws, &none));
}

/* The registry's row named `name`, or NULL (a set this build lacks). */
static const tmv_kernel *registry_row(const char *name)
{
    for (unsigned i = 0; i < tmv_kernel_count; i++)
        if (strcmp(tmv_kernels[i].name, name) == 0)
            return &tmv_kernels[i];
    return NULL;
}

/* A kernel streams a step only past the threshold: a `streams` row
 * always, a `plain` one never, a `streams_if` one as its hook says (and
 * only those have one). On a JOIN of 64 MiB the model then takes the
 * lines kernel, which streams, over the byte permutes' plain stores. */
Test(cost, streams_by_the_registry_stores_column)
{
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        if (k->primitive == TMV_PRIMITIVE_GATHER)
            cr_expect_neq(k->stores, TMV_STORES_BY_SHAPE, "%s", k->name);
        else if (tmv_primitive_copies(k->primitive))
            cr_expect_eq(k->fn.copy.streams != NULL, k->stores == TMV_STORES_BY_SHAPE, "%s", k->name);
        else if (k->primitive == TMV_PRIMITIVE_JOIN_ROWS)
            cr_expect_eq(k->fn.join_rows.streams != NULL, k->stores == TMV_STORES_BY_SHAPE, "%s", k->name);
        else
            cr_expect_eq(k->fn.split_rows.streams != NULL, k->stores == TMV_STORES_BY_SHAPE, "%s", k->name);
    }
    const tmv_tuning t = {.stream_threshold = 8 << 20, .cache_bytes = {48 << 10, 2 << 20, 260ull << 20}};
    const tmv_rows_piece pieces[3] = {{0, 16, 0, 16}, {1, 16, 16, 16}, {2, 16, 32, 16}};
    tmv_rows_shape big = {.rows = (64 << 20) / 48, .joined_pitch = 48, .joined_bytes = 48, .piece_count = 3,
                          .pieces = pieces, .tuning = &t};
    const double bytes = (double)big.rows * 48;
    const tmv_kernel *lines = registry_row("join_rows_lines/avx512");
    const tmv_kernel *bytewise = registry_row("join_rows_bytes/avx512vbmi");
    const tmv_kernel *columns = registry_row("join_rows_columns/avx2");
    if (lines == NULL || bytewise == NULL || columns == NULL)
        return;   /* a build without the x86 sets */
    cr_expect(tmv_cost_streams(lines, &big, bytes, &t));
    cr_expect_not(tmv_cost_streams(bytewise, &big, bytes, &t));
    cr_expect_not(tmv_cost_streams(lines, &big, 4 << 20, &t), "below the threshold nothing streams");
    cr_expect_not(tmv_cost_streams(columns, &big, bytes, &t), "16-byte pieces are no whole lines");
    const tmv_rows_piece lined[2] = {{0, 64, 0, 64}, {1, 64, 64, 64}};
    tmv_rows_shape whole = {.rows = (64 << 20) / 128, .joined_pitch = 128, .joined_bytes = 128, .piece_count = 2,
                            .pieces = lined, .tuning = &t};
    cr_expect(tmv_cost_streams(columns, &whole, 64 << 20, &t));
    const double rated_lines = tmv_cost_of(lines, &big), rated_bytes = tmv_cost_of(bytewise, &big);
    cr_expect(rated_lines > 0 && rated_lines < TMV_COST_SWITCH_RATIO * rated_bytes, "%g ns against %g", rated_lines,
              rated_bytes);
}

/* A step past the stream threshold is rated, never below DRAM's copy time:
 * a 64 MiB transpose by the scalar 4-byte copy is priced at its compute
 * (far above the floor), a contiguous copy by memcpy at the floor of plain
 * stores (1.5x a streamed copy's). */
Test(cost, steps_past_the_stream_threshold_are_rated_at_least_at_the_floor)
{
    const tmv_tuning t = {.stream_threshold = 1 << 20, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
    tmv_copy_shape s = {.rank = 2, .elem_bytes = 4, .sizes = {4096, 4096}, .tuning = &t};
    s.src_strides[0] = 4, s.src_strides[1] = 4 * 4096;   /* a transpose: runs of one element */
    s.dst_strides[0] = 4 * 4096, s.dst_strides[1] = 4;
    tmv_copy_shape flat = {.rank = 1, .elem_bytes = 4, .sizes = {4096 * 4096}, .tuning = &t};
    flat.src_strides[0] = flat.dst_strides[0] = 4;
    cr_assert(tmv_shape_normalize(&flat));   /* one element of 64 MiB, as a plan has it */
    const double floor = tmv_cost_memory_ns(4.0 * 4096 * 4096, 8.0 * 4096 * 4096, &t);
    const tmv_kernel *w4 = NULL, *memcpy_kernel = NULL;
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        if (strcmp(tmv_kernels[i].name, "copy_w4/scalar") == 0)
            w4 = &tmv_kernels[i];
        if (strcmp(tmv_kernels[i].name, "copy_memcpy/scalar") == 0)
            memcpy_kernel = &tmv_kernels[i];
    }
    cr_assert(w4 != NULL && memcpy_kernel != NULL);
    const double element_copy = tmv_cost_of(w4, &s), contiguous = tmv_cost_of(memcpy_kernel, &flat);
    cr_expect(element_copy > floor, "%g ns, floor %g", element_copy, floor);
    cr_expect(contiguous >= 1.5 * floor && contiguous < 1.51 * floor, "%g ns, floor %g", contiguous, floor);
}

/* The registry's first choice stays unless another is estimated below
 * TMV_COST_SWITCH_RATIO of it; unrated candidates are never taken; of
 * those within TMV_COST_TIE_RATIO of the cheapest, the earliest runs. */
Test(cost, choice_keeps_the_first_unless_another_is_clearly_cheaper)
{
    const double near[] = {10, 8}, clear[] = {10, 7}, cheapest[] = {10, 7, 6, 9};
    const double unrated_first[] = {-1, 1}, unrated_other[] = {10, -1, 5};
    const double tied[] = {10, 7, 6.05, 6}, tied_unrated[] = {10, -1, 6.05, 6};
    cr_expect_eq(tmv_cost_choice(tied, 4), 2);
    cr_expect_eq(tmv_cost_choice(tied_unrated, 4), 2);
    cr_expect_eq(tmv_cost_choice(near, 2), 0);
    cr_expect_eq(tmv_cost_choice(clear, 2), 1);
    cr_expect_eq(tmv_cost_choice(cheapest, 4), 2);
    cr_expect_eq(tmv_cost_choice(unrated_first, 2), 0);
    cr_expect_eq(tmv_cost_choice(unrated_other, 3), 2);
    cr_expect_eq(tmv_cost_choice(near, 1), 0);
}

/* Every table of src/cost_tables/ covers every kernel it can rate: a
 * kernel added to the registry without a calibration run fails here. Not
 * rated: gathers, the NEON sets (no NEON hardware to fit them on) and the
 * streaming kernels, which accept only outputs past the stream threshold,
 * where every estimate is DRAM's floor and the registry's order keeps them. */
Test(cost, every_table_has_a_profile_for_every_kernel_it_can_rate)
{
    cr_assert_gt(tmv_cost_table_count, 1);
    for (unsigned t = 0; t < tmv_cost_table_count; t++) {
        const tmv_cost_table *table = &tmv_cost_tables[t];
        for (unsigned i = 0; i < tmv_kernel_count; i++) {
            const tmv_kernel *k = &tmv_kernels[i];
            const tmv_cost_profile *p = tmv_cost_profile_in(table, k);
            if (p != NULL)
                cr_expect(p->call_ns >= 0 && p->block_ns >= 0 && p->line_ns >= 0 && p->piece_ns >= 0 &&
                              p->byte_ns >= 0,
                          "%s, %s: a negative price", table->name, k->name);
            const bool neon = k->set == TMV_ISA_NEON || k->set == TMV_ISA_NEON_SIMDE;
            if (k->primitive == TMV_PRIMITIVE_GATHER || neon || strstr(k->name, "stream") != NULL)
                continue;
            cr_expect_not_null(p, "%s has no cost profile in table %s: run tmv-check-kernels "
                                  "--calibrate=src/cost_tables/%s.inc --kernel %s",
                               k->name, table->name, table->name, k->name);
        }
    }
}

/* A CPU gets the table fitted for its vendor and family, any other the
 * default (the last); the default prices a record that names no table. */
Test(cost, a_cpu_gets_its_family_table_or_the_default)
{
    const tmv_cost_table *def = tmv_cost_table_default();
    cr_expect_eq(def, &tmv_cost_tables[tmv_cost_table_count - 1]);
    for (unsigned t = 0; t + 1 < tmv_cost_table_count; t++) {
        const tmv_cost_table *table = &tmv_cost_tables[t];
        cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){table->vendor, table->family, 0}), table, "%s", table->name);
        cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){table->vendor, table->family + 1, 0}), def, "%s", table->name);
        cr_expect_eq(tmv_cost_table_named(table->name), table);
    }
    cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){TMV_CPU_VENDOR_OTHER, 0, 0}), def);
    cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){TMV_CPU_VENDOR_AMD, 0x1A, 2}), tmv_cost_table_named("zen5"));
    cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){TMV_CPU_VENDOR_INTEL, 0x1A, 2}), def);
    cr_expect_eq(tmv_cost_table_for((tmv_cpu_id){TMV_CPU_VENDOR_INTEL, 6, 207}), tmv_cost_table_named("xeon"));
    cr_expect_null(tmv_cost_table_named("zen"));
    /* the same kernel is priced by each table's own row */
    const tmv_kernel *k = NULL;
    for (unsigned i = 0; i < tmv_kernel_count && k == NULL; i++)
        if (strcmp(tmv_kernels[i].name, "copy_memcpy/scalar") == 0)
            k = &tmv_kernels[i];
    cr_assert_not_null(k);
    cr_expect_eq(tmv_cost_profile_in(NULL, k), tmv_cost_profile_in(def, k));
    const tmv_cost_table *zen5 = tmv_cost_table_named("zen5");
    cr_expect_neq(tmv_cost_profile_in(zen5, k), tmv_cost_profile_in(def, k));
    cr_expect_geq(tmv_cost_profile_in(zen5, k), zen5->profiles);
    cr_expect_lt(tmv_cost_profile_in(zen5, k), zen5->profiles + zen5->count);
}

/* tmv_pick and tmv_pick_copy gather every accepting kernel of a primitive
 * (of the copy family for a copy shape) in a TMV_COST_CANDIDATES_MAX array,
 * and the model indexes profiles for TMV_COST_KERNELS_MAX rows. */
Test(cost, registry_fits_the_candidate_array)
{
    unsigned copy_family = 0, per_primitive[TMV_PRIMITIVE_COUNT] = {0};
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        copy_family += tmv_primitive_copies(tmv_kernels[i].primitive);
        per_primitive[tmv_kernels[i].primitive]++;
    }
    cr_expect_leq(tmv_kernel_count, TMV_COST_KERNELS_MAX);
    cr_expect_leq(copy_family, TMV_COST_CANDIDATES_MAX);
    for (int p = 0; p < TMV_PRIMITIVE_COUNT; p++)
        cr_expect_leq(per_primitive[p], TMV_COST_CANDIDATES_MAX);
}

/* A priced kernel counts its own units, and the planner and the calibration
 * take them alike (tmv_cost_kernel_features). DEPTH_TO_SPACE of NHWC, CRD,
 * B = 4, C = 3, u8, two input rows of 13 pixels: each output row is 13
 * pixel quads of 12 bytes, each read from 48 source bytes (channels 16
 * bytes apart). Four 64-byte windows hold five quads' 240 bytes, not six's
 * 288, so copy_permute writes a row as two blocks of five quads (four
 * windows, one vector each) and a tail of three (144 bytes: three windows,
 * one vector): 2 x 4 rows x 3 blocks, 8 x (2 x 4 + 3) window loads, 24
 * vectors of two window pairs each, 48 permutes; the bytes stay the
 * shape's. A kernel that is not priced keeps the shape's features. */
Test(cost, a_priced_kernel_counts_its_own_blocks_loads_and_permutes)
{
    const tmv_kernel *permute = tu_runnable_kernel("copy_permute/avx512vbmi");
    if (permute == NULL)
        cr_skip_test("copy_permute/avx512vbmi: this CPU does not run the avx512vbmi set");
    tmv_copy_shape s = {.rank = 5, .elem_bytes = 1, .sizes = {2, 4, 13, 4, 3}};
    const int64_t src[5] = {624, 4, 48, 1, 16}, dst[5] = {624, 156, 12, 3, 1};
    for (int d = 0; d < 5; d++)
        s.src_strides[d] = src[d], s.dst_strides[d] = dst[d];
    cr_assert(permute->fn.copy.features != NULL && permute->fn.copy.accepts(&s));
    tmv_cost_features f;
    cr_assert(tmv_cost_kernel_features(permute, &s, &f));
    cr_expect(f.blocks == 24 && f.lines == 88 && f.pieces == 48 && f.bytes == 1248,
              "%g blocks, %g loads, %g permutes, %g bytes", f.blocks, f.lines, f.pieces, f.bytes);
    const tmv_kernel *w1 = tu_runnable_kernel("copy_w1/scalar");
    cr_assert(w1 != NULL && w1->fn.copy.features == NULL);
    tmv_cost_features h;
    cr_assert(tmv_cost_kernel_features(w1, &s, &h));
    const tmv_cost_features g = tmv_cost_copy_features(&s);
    cr_expect(h.blocks == g.blocks && h.lines == g.lines && h.pieces == g.pieces && h.bytes == g.bytes);
}

/* copy_permute's plans of rows sharing windows (and of halves) are
 * registered apart, as copy_permute_placed, and priced by their own
 * profile: each shape goes to exactly one of the two. SPACE_TO_DEPTH nchw
 * B2 DCR C16 u8, 22 x 22 pixels, is [by 2, bx 2, (c, oh) 176, ow 11]: its
 * block column's two rows (bx) read the same windows a byte apart, a rows
 * plan; the DEPTH_TO_SPACE of the test above is a plain one. */
Test(cost, copy_permute_rows_plans_go_to_the_placed_kernel_only)
{
    const tmv_kernel *plain = tu_runnable_kernel("copy_permute/avx512vbmi");
    const tmv_kernel *placed = tu_runnable_kernel("copy_permute_placed/avx512vbmi");
    if (plain == NULL || placed == NULL)
        cr_skip_test("copy_permute/avx512vbmi: this CPU does not run the avx512vbmi set");
    tmv_copy_shape rows = {.rank = 4, .elem_bytes = 1, .sizes = {2, 2, 176, 11}};
    const int64_t rows_src[4] = {22, 1, 44, 2}, rows_dst[4] = {3872, 1936, 11, 1};
    tmv_copy_shape blocks = {.rank = 5, .elem_bytes = 1, .sizes = {2, 4, 13, 4, 3}};
    const int64_t blocks_src[5] = {624, 4, 48, 1, 16}, blocks_dst[5] = {624, 156, 12, 3, 1};
    for (int d = 0; d < 5; d++) {
        if (d < 4)
            rows.src_strides[d] = rows_src[d], rows.dst_strides[d] = rows_dst[d];
        blocks.src_strides[d] = blocks_src[d], blocks.dst_strides[d] = blocks_dst[d];
    }
    cr_expect(placed->fn.copy.accepts(&rows) && !plain->fn.copy.accepts(&rows));
    cr_expect(plain->fn.copy.accepts(&blocks) && !placed->fn.copy.accepts(&blocks));
    cr_expect(placed->fn.copy.features != NULL && tmv_cost_profile_in(NULL, placed) != NULL);
}

/* copy_permute cuts its blocks into whole vectors where a number of
 * periods fills them: TILE inner {341, 3} f32 by {1, 2} is 341 rows of 24
 * bytes, each a 12-byte element (the row folded) written twice. Blocks of
 * 8 rows are 192 bytes, three whole vectors, from 96 source bytes (two
 * windows, one permute a vector); 341 = 42 x 8 + 5, and the tail of 5 rows
 * is 120 bytes, two vectors from 60 source bytes (one window): 43 blocks,
 * 42 x 2 + 1 window loads, 42 x 3 + 2 permutes. Run on a source that ends
 * where the buffer does, it writes each row's element twice and nothing
 * past the output. */
Test(cost, copy_permute_moves_blocks_of_whole_vectors_and_a_tail)
{
    const tmv_kernel *permute = tu_runnable_kernel("copy_permute/avx512vbmi");
    if (permute == NULL)
        cr_skip_test("copy_permute/avx512vbmi: this CPU does not run the avx512vbmi set");
    enum { ROWS = 341, IN = ROWS * 12, OUT = ROWS * 24 };
    const tmv_tuning t = {.stream_threshold = 1 << 24, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
    tmv_copy_shape s = {.rank = 2, .elem_bytes = 12, .sizes = {ROWS, 2}, .tuning = &t};
    s.src_strides[0] = 12, s.dst_strides[0] = 24, s.src_strides[1] = 0, s.dst_strides[1] = 12;
    cr_assert(permute->fn.copy.accepts(&s));
    tmv_cost_features f;
    cr_assert(tmv_cost_kernel_features(permute, &s, &f));
    cr_expect(f.blocks == 43 && f.lines == 85 && f.pieces == 128, "%g blocks, %g loads, %g permutes", f.blocks,
              f.lines, f.pieces);
    void *state = aligned_alloc(64, TMV_KERNEL_STATE_BYTES);
    uint8_t *in = malloc(IN), *out = malloc(OUT + 64);
    cr_assert(state != NULL && in != NULL && out != NULL);
    for (unsigned i = 0; i < IN; i++)
        in[i] = (uint8_t)(i * 7 + i / 251);
    memset(out, 0xA5, OUT + 64);
    tmv_kernel_prepare(permute, &s, state);
    s.state = state;
    permute->fn.copy.run(&s, in, out);
    for (unsigned r = 0; r < ROWS; r++)
        for (unsigned b = 0; b < 24; b++)
            cr_assert_eq(out[24 * r + b], in[12 * r + b % 12], "row %u byte %u", r, b);
    for (unsigned b = OUT; b < OUT + 64; b++)
        cr_assert_eq(out[b], 0xA5, "byte %u past the output written", b);
    free(state);
    free(in);
    free(out);
}
