/* zoo.c - the model zoo (--tmv_zoo): data movement as real networks do it, each at its own size, NCHW and NHWC.
 *
 * A shape of the zoo is written as the network has it (DirectML's NCHW
 * axes; NHWC storage as strides on them, as an NHWC model's description
 * would have them), so the suite's size classes do not apply: each runs at
 * its own output size, on one thread, under the default kernel set. */
#include <stdio.h>

#include "cases.h"

#define F32 TMV_DTYPE_FLOAT32
#define F16 TMV_DTYPE_FLOAT16
#define U8 TMV_DTYPE_UINT8
#define I32 TMV_DTYPE_INT32
#define I64 TMV_DTYPE_INT64
#define DCR TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
#define CRD TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH
#define MAX_PIECES 4

typedef struct zoo_shape {
    const char *name;
    tmv_op_type op;
    tmv_dtype dtype;
    int nhwc;                              /* 4-D tensors stored channels-last */
    uint32_t dims;
    uint32_t sizes[MAX_PIECES][4];         /* JOIN/SPLIT: the pieces; others: [0] the input */
    uint32_t pieces;                       /* JOIN/SPLIT */
    uint32_t arg[4];                       /* JOIN/SPLIT: axis; TILE: repeats; S2D/D2S: block, order;
                                              GATHER_ND: lookups, index type */
} zoo_shape;

static const zoo_shape shapes[] = {
    /* pixel shuffle (PyTorch's is CRD) in super-resolution, and TensorFlow's depth_to_space (DCR) */
    {"espcn-x3", TMV_OP_DEPTH_TO_SPACE, F32, 0, 4, {{1, 9, 224, 224}}, 0, {3, CRD}},
    {"edsr-x2-upsampler", TMV_OP_DEPTH_TO_SPACE, F32, 0, 4, {{1, 256, 128, 128}}, 0, {2, CRD}},
    {"sr-x4-rgb-out", TMV_OP_DEPTH_TO_SPACE, F32, 0, 4, {{1, 48, 256, 256}}, 0, {4, CRD}},
    {"tf-d2s-x2", TMV_OP_DEPTH_TO_SPACE, F32, 1, 4, {{1, 256, 64, 64}}, 0, {2, DCR}},
    {"sr-x2-fp16", TMV_OP_DEPTH_TO_SPACE, F16, 1, 4, {{1, 256, 128, 128}}, 0, {2, DCR}},
    /* the space-to-depth stems of detection networks */
    {"yolov5-focus", TMV_OP_SPACE_TO_DEPTH, F32, 0, 4, {{1, 3, 640, 640}}, 0, {2, DCR}},
    {"yolov5-focus-image", TMV_OP_SPACE_TO_DEPTH, U8, 1, 4, {{1, 3, 640, 640}}, 0, {2, DCR}},
    {"efficientdet-s2d-b8", TMV_OP_SPACE_TO_DEPTH, F32, 1, 4, {{8, 3, 512, 512}}, 0, {2, DCR}},
    {"resnet-s2d-stem", TMV_OP_SPACE_TO_DEPTH, F32, 1, 4, {{1, 3, 224, 224}}, 0, {4, DCR}},
    /* embedding lookups: {rows, width} tables, lookups x 1 indices */
    {"bert-base-tokens512", TMV_OP_GATHER_ND, F32, 0, 2, {{30522, 768}}, 0, {512, I64}},
    {"gpt2-tokens1024", TMV_OP_GATHER_ND, F32, 0, 2, {{50257, 768}}, 0, {1024, I64}},
    {"bert-base-b32x128", TMV_OP_GATHER_ND, F32, 0, 2, {{30522, 768}}, 0, {4096, I32}},
    {"dlrm-1m-rows-b2048x26", TMV_OP_GATHER_ND, F32, 0, 2, {{1000000, 64}}, 0, {53248, I64}},
    {"word-vectors-fp16", TMV_OP_GATHER_ND, F16, 0, 2, {{100000, 128}}, 0, {4096, I32}},
    /* Q/K/V splits of a fused projection, and a channel split (ShuffleNet) */
    {"bert-qkv", TMV_OP_SPLIT, F32, 0, 3, {{1, 512, 768}, {1, 512, 768}, {1, 512, 768}}, 3, {2}},
    {"gpt2-qkv-b8", TMV_OP_SPLIT, F16, 0, 3, {{8, 128, 768}, {8, 128, 768}, {8, 128, 768}}, 3, {2}},
    {"llama7b-qkv-2k", TMV_OP_SPLIT, F16, 0, 3, {{1, 2048, 4096}, {1, 2048, 4096}, {1, 2048, 4096}}, 3, {2}},
    {"shufflenet-split", TMV_OP_SPLIT, F32, 0, 4, {{1, 116, 28, 28}, {1, 116, 28, 28}}, 2, {1}},
    {"shufflenet-split", TMV_OP_SPLIT, F32, 1, 4, {{1, 116, 28, 28}, {1, 116, 28, 28}}, 2, {1}},
    /* DenseNet and Inception concatenations along channels, and a U-Net skip */
    {"densenet-concat", TMV_OP_JOIN, F32, 0, 4, {{1, 256, 28, 28}, {1, 32, 28, 28}}, 2, {1}},
    {"densenet-concat", TMV_OP_JOIN, F32, 1, 4, {{1, 256, 28, 28}, {1, 32, 28, 28}}, 2, {1}},
    {"inception-v3-mixed", TMV_OP_JOIN, F32, 0, 4,
     {{1, 64, 35, 35}, {1, 64, 35, 35}, {1, 96, 35, 35}, {1, 32, 35, 35}}, 4, {1}},
    {"inception-v3-mixed", TMV_OP_JOIN, F32, 1, 4,
     {{1, 64, 35, 35}, {1, 64, 35, 35}, {1, 96, 35, 35}, {1, 32, 35, 35}}, 4, {1}},
    {"unet-skip-fp16", TMV_OP_JOIN, F16, 1, 4, {{1, 64, 128, 128}, {1, 64, 128, 128}}, 2, {1}},
    /* bias, mask and embedding broadcasts */
    {"bias-broadcast", TMV_OP_TILE, F32, 0, 4, {{1, 256, 1, 1}}, 0, {1, 1, 56, 56}},
    {"bias-broadcast", TMV_OP_TILE, F32, 1, 4, {{1, 256, 1, 1}}, 0, {1, 1, 56, 56}},
    {"attention-mask-b8", TMV_OP_TILE, F32, 0, 4, {{8, 1, 1, 128}}, 0, {1, 12, 128, 1}},
    {"causal-mask-2k", TMV_OP_TILE, U8, 0, 4, {{1, 1, 2048, 2048}}, 0, {1, 32, 1, 1}},
    {"position-embedding-b32", TMV_OP_TILE, F32, 0, 3, {{1, 512, 768}}, 0, {32, 1, 1}},
    {"layernorm-gamma", TMV_OP_TILE, F32, 0, 3, {{1, 1, 768}}, 0, {8, 512, 1}},
};
#define SHAPE_COUNT (sizeof shapes / sizeof shapes[0])

/* A tensor of the shape: channels-last strides when it is NHWC, packed otherwise. */
static tmv_tensor_desc *tensor(bench_setup *s, const zoo_shape *z, const uint32_t *sizes) {
    uint32_t strides[4];
    if (z->nhwc) nhwc_strides(sizes, strides);
    return setup_tensor(s, z->dtype, z->dims, sizes, z->nhwc ? strides : NULL);
}

static uint64_t elems(const uint32_t *sizes, uint32_t dims) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < dims; ++d) n *= sizes[d];
    return n;
}

/* The output's sizes (the whole tensor for SPLIT: what it reads and writes). */
static void output_sizes(const zoo_shape *z, uint32_t *out) {
    const uint32_t *in = z->sizes[0], b = z->arg[0];
    for (uint32_t d = 0; d < z->dims; ++d) out[d] = in[d];
    switch (z->op) {
    case TMV_OP_JOIN:
    case TMV_OP_SPLIT:
        for (uint32_t k = 1; k < z->pieces; ++k) out[z->arg[0]] += z->sizes[k][z->arg[0]];
        break;
    case TMV_OP_TILE:
        for (uint32_t d = 0; d < z->dims; ++d) out[d] = in[d] * z->arg[d];
        break;
    case TMV_OP_SPACE_TO_DEPTH: out[1] = in[1] * b * b, out[2] = in[2] / b, out[3] = in[3] / b; break;
    case TMV_OP_DEPTH_TO_SPACE: out[1] = in[1] / (b * b), out[2] = in[2] * b, out[3] = in[3] * b; break;
    default: out[0] = z->arg[0], out[1] = in[1]; break;   /* GATHER_ND: lookups x width */
    }
}

static int build(const bench_case *c, uint64_t target, bench_setup *s) {
    (void)target;   /* a zoo shape has its own size */
    const zoo_shape *z = &shapes[c->p[0]];
    const size_t esz = tmv_dtype_size(z->dtype);
    uint32_t whole[4];
    output_sizes(z, whole);
    tmv_tensor_desc *out = NULL;
    switch (z->op) {
    case TMV_OP_JOIN:
    case TMV_OP_SPLIT: {
        tmv_tensor_desc *parts = NULL;
        for (uint32_t k = 0; k < z->pieces; ++k) {
            tmv_tensor_desc *t = tensor(s, z, z->sizes[k]);
            if (k == 0) parts = t;
        }
        return setup_join_split(s, z->op == TMV_OP_SPLIT, tensor(s, z, whole), parts, z->pieces, z->arg[0]);
    }
    case TMV_OP_TILE: {
        tmv_tensor_desc *in = tensor(s, z, z->sizes[0]);
        out = tensor(s, z, whole);
        for (uint32_t d = 0; d < z->dims; ++d) s->repeats[d] = z->arg[d];
        s->u.tile = (tmv_tile_desc){in, out, z->dims, s->repeats};
        s->op = (tmv_op_desc){TMV_OP_TILE, &s->u.tile, 0};
        if (setup_input(s, in) || setup_output(s, out)) return -1;
        s->bytes_read = elems(z->sizes[0], z->dims) * esz;
        break;
    }
    case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE: {
        tmv_tensor_desc *in = tensor(s, z, z->sizes[0]);
        out = tensor(s, z, whole);
        const tmv_depth_space_order order = (tmv_depth_space_order)z->arg[1];
        if (z->op == TMV_OP_SPACE_TO_DEPTH) {
            s->u.s2d = (tmv_space_to_depth_desc){in, out, z->arg[0], order};
            s->op = (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s->u.s2d, 0};
        } else {
            s->u.d2s = (tmv_depth_to_space_desc){in, out, z->arg[0], order};
            s->op = (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &s->u.d2s, 0};
        }
        if (setup_input(s, in) || setup_output(s, out)) return -1;
        s->bytes_read = elems(whole, z->dims) * esz;
        break;
    }
    default: {   /* GATHER_ND: a {rows, width} table, {lookups, 1} indices */
        const uint32_t idx_sizes[2] = {z->arg[0], 1}, bound = z->sizes[0][0];
        tmv_tensor_desc *in = tensor(s, z, z->sizes[0]);
        tmv_tensor_desc *idx = setup_tensor(s, (tmv_dtype)z->arg[1], 2, idx_sizes, NULL);
        out = tensor(s, z, whole);
        s->u.gather_nd = (tmv_gather_nd_desc){in, idx, out, 2, 2, 0};
        s->op = (tmv_op_desc){TMV_OP_GATHER_ND, &s->u.gather_nd, 0};
        const size_t idx_bytes = (size_t)z->arg[0] * tmv_dtype_size((tmv_dtype)z->arg[1]);
        void *ip = setup_buffer(s, idx_bytes, 0);
        if (setup_input(s, in) || !ip) return -1;
        fill_indices(ip, (tmv_dtype)z->arg[1], z->arg[0], &bound, 1, 0x9E3779B97F4A7C15ULL);
        setup_bind_input(s, ip);
        if (setup_output(s, out)) return -1;
        s->bytes_read = elems(whole, z->dims) * esz + idx_bytes;
        break;
    }
    }
    s->bytes_written = elems(whole, z->dims) * esz;
    return 0;
}

static void label(const bench_case *c, char *buf, size_t n) {
    const zoo_shape *z = &shapes[c->p[0]];
    snprintf(buf, n, "%s%s", z->name, z->dims != 4 ? "" : z->nhwc ? "-nhwc" : "-nchw");
}

static const bench_kind kinds[] = {
    [TMV_OP_JOIN] = {"join", "zoo", build, label},
    [TMV_OP_SPLIT] = {"split", "zoo", build, label},
    [TMV_OP_TILE] = {"tile", "zoo", build, label},
    [TMV_OP_SPACE_TO_DEPTH] = {"space_to_depth", "zoo", build, label},
    [TMV_OP_DEPTH_TO_SPACE] = {"depth_to_space", "zoo", build, label},
    [TMV_OP_GATHER_ND] = {"gather_nd", "zoo", build, label},
};

void bench_register_zoo(void) {
    static bench_case cases[SHAPE_COUNT];
    static char size_names[SHAPE_COUNT][16];
    for (size_t i = 0; i < SHAPE_COUNT; ++i) {
        uint32_t whole[4];
        output_sizes(&shapes[i], whole);
        const uint64_t bytes = elems(whole, shapes[i].dims) * tmv_dtype_size(shapes[i].dtype);
        if (bytes >= 1u << 20)
            snprintf(size_names[i], sizeof size_names[i], "%.1fMiB", (double)bytes / (1u << 20));
        else
            snprintf(size_names[i], sizeof size_names[i], "%.0fKiB", (double)bytes / 1024);
        cases[i] = (bench_case){&kinds[shapes[i].op], shapes[i].dtype, {(uint32_t)i}, 0};
        bench_register_case(&cases[i], bytes, size_names[i]);
    }
}
