/* fam_depth_space.c - SPACE_TO_DEPTH and DEPTH_TO_SPACE kinds: NCHW packed, from a padded input, and NHWC (strided descriptions).
 *
 * The spatial side is {1, C, H, W} with H, W near sqrt(target / (C * esz)),
 * multiples of B; the depth side is {1, C*B*B, H/B, W/B}. NHWC stores both
 * channels innermost: strides {H*W*C, 1, W*C, C} on their own sizes.
 * Bytes: read = written = the output elements' bytes. */
#include <math.h>
#include <stdio.h>

#include "cases.h"

#define S2D_PAD 16   /* padded input: rows W + 16 elements apart */

static uint32_t round_down(uint64_t v, uint32_t m) { return v < m ? m : (uint32_t)(v / m * m); }

enum layout { NCHW, PADDED, NHWC };

static int build(const bench_case *c, uint64_t target, bench_setup *s, int to_depth, enum layout layout) {
    const uint32_t b = c->p[0], ch = c->p[2];
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint64_t pixels = target / esz / ch;
    const uint32_t h = round_down((uint64_t)sqrt((double)pixels), b);
    const uint32_t w = round_down(pixels / h, b);
    const uint32_t spatial[4] = {1, ch, h, w};
    const uint32_t depth[4] = {1, ch * b * b, h / b, w / b};
    const uint32_t wp = w + S2D_PAD;
    uint32_t sp_strides[4] = {ch * h * wp, h * wp, wp, 1}, dp_strides[4];
    if (layout == NHWC) {
        nhwc_strides(spatial, sp_strides);
        nhwc_strides(depth, dp_strides);
    }
    tmv_tensor_desc *sp = setup_tensor(s, c->dtype, 4, spatial, layout == NCHW ? NULL : sp_strides);
    tmv_tensor_desc *dp = setup_tensor(s, c->dtype, 4, depth, layout == NHWC ? dp_strides : NULL);
    const tmv_depth_space_order order = (tmv_depth_space_order)c->p[1];
    if (to_depth) {
        s->u.s2d = (tmv_space_to_depth_desc){sp, dp, b, order};
        s->op = (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s->u.s2d, 0};
        if (setup_input(s, sp) || setup_output(s, dp)) return -1;
    } else {
        s->u.d2s = (tmv_depth_to_space_desc){dp, sp, b, order};
        s->op = (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &s->u.d2s, 0};
        if (setup_input(s, dp) || setup_output(s, sp)) return -1;
    }
    s->bytes_written = tensor_elems(dp) * esz;
    s->bytes_read = s->bytes_written;
    return 0;
}

static int s2d(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 1, NCHW); }
static int d2s(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 0, NCHW); }
static int s2d_padded(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 1, PADDED); }
static int s2d_nhwc(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 1, NHWC); }
static int d2s_nhwc(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 0, NHWC); }

static void label(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "B%u-%s-C%u", c->p[0], c->p[1] == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? "dcr" : "crd",
             c->p[2]);
}

const bench_kind kind_s2d = {"space_to_depth", "nchw", s2d, label};
const bench_kind kind_d2s = {"depth_to_space", "nchw", d2s, label};
const bench_kind kind_s2d_padded = {"space_to_depth", "padded", s2d_padded, label};
const bench_kind kind_s2d_nhwc = {"space_to_depth", "nhwc", s2d_nhwc, label};
const bench_kind kind_d2s_nhwc = {"depth_to_space", "nhwc", d2s_nhwc, label};
