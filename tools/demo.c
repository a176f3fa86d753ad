/* demo.c - tmv-demo: runs each operator on a seed example of docs/SPEC.md, prints it, checks the result. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensormove.h"

/* A packed UINT32 tensor: its shape and its data. */
typedef struct {
    const char     *name;
    uint32_t        dim_count;
    const uint32_t *sizes;
    uint32_t       *data;
} demo_tensor;

static size_t element_count(const demo_tensor *t)
{
    size_t n = 1;
    for (uint32_t d = 0; d < t->dim_count; d++)
        n *= t->sizes[d];
    return n;
}

static tmv_tensor_desc desc_of(const demo_tensor *t)
{
    tmv_tensor_desc desc = {TMV_DTYPE_UINT32, t->dim_count, t->sizes, NULL};
    return desc;
}

/* Prints the tensor as rows of its last dimension, one block per matrix
 * (last two dimensions), each block labelled with its leading coordinates. */
static void print_tensor(const demo_tensor *t)
{
    printf("    %-10s uint32 {", t->name);
    for (uint32_t d = 0; d < t->dim_count; d++)
        printf("%s%u", d ? "," : "", t->sizes[d]);
    printf("}\n");

    uint32_t cols = t->sizes[t->dim_count - 1];
    uint32_t rows = t->dim_count >= 2 ? t->sizes[t->dim_count - 2] : 1;
    uint32_t lead_dims = t->dim_count >= 2 ? t->dim_count - 2 : 0;
    size_t blocks = (rows && cols) ? element_count(t) / ((size_t)rows * cols) : 0;
    for (size_t b = 0; b < blocks; b++) {
        char label[96] = "";
        if (lead_dims > 0) {
            /* The leading coordinates of block b, last one fastest. */
            uint32_t coord[TMV_MAX_DIMS];
            size_t rest = b;
            for (uint32_t d = lead_dims; d-- > 0;) {
                coord[d] = (uint32_t)(rest % t->sizes[d]);
                rest /= t->sizes[d];
            }
            size_t len = 0;
            for (uint32_t d = 0; d < lead_dims && len < sizeof label; d++)
                len += (size_t)snprintf(label + len, sizeof label - len, "%s%u", d ? "," : "[", coord[d]);
            if (len < sizeof label)
                snprintf(label + len, sizeof label - len, ",:,:]");
        }
        for (uint32_t r = 0; r < rows; r++) {
            printf("      %-12s [", r == 0 ? label : "");
            for (uint32_t c = 0; c < cols; c++)
                printf("%s%3u", c ? " " : "", t->data[(b * rows + r) * cols + c]);
            printf("]\n");
        }
    }
}

/* Runs one operator, prints inputs and outputs, compares each output with
 * its expected contents. Returns 0 on success, 1 on any failure. */
static int run(const char *title, const tmv_op_desc *op, demo_tensor *inputs, uint32_t input_count,
               demo_tensor *outputs, const uint32_t *const *expected, uint32_t output_count)
{
    const void *in_ptrs[4];
    void *out_ptrs[4];
    for (uint32_t i = 0; i < input_count; i++)
        in_ptrs[i] = inputs[i].data;
    for (uint32_t o = 0; o < output_count; o++) {
        memset(outputs[o].data, 0xff, element_count(&outputs[o]) * sizeof(uint32_t));
        out_ptrs[o] = outputs[o].data;
    }

    printf("%s\n", title);
    for (uint32_t i = 0; i < input_count; i++)
        print_tensor(&inputs[i]);
    tmv_op *compiled = NULL;
    tmv_status status = tmv_op_create(op, &compiled);
    if (status == TMV_OK) {
        printf("  plan: %s\n", tmv_op_describe(compiled));
        status = tmv_op_execute(compiled, in_ptrs, out_ptrs);
        tmv_op_destroy(compiled);
    }
    if (status != TMV_OK) {
        printf("  FAILED: %s: %s\n\n", tmv_status_string(status), tmv_last_error());
        return 1;
    }
    int failed = 0;
    for (uint32_t o = 0; o < output_count; o++) {
        print_tensor(&outputs[o]);
        if (memcmp(outputs[o].data, expected[o], element_count(&outputs[o]) * sizeof(uint32_t)) != 0) {
            printf("  FAILED: %s differs from docs/SPEC.md's expected result\n", outputs[o].name);
            failed = 1;
        }
    }
    printf("  %s\n\n", failed ? "WRONG" : "ok (matches docs/SPEC.md)");
    return failed;
}

/* docs/SPEC.md 2: JOIN along axis 3. */
static int demo_join(void)
{
    static const uint32_t s0[] = {1, 1, 2, 3}, s1[] = {1, 1, 2, 4}, so[] = {1, 1, 2, 7};
    uint32_t a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12, 13, 14}, out[14];
    static const uint32_t want[] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    demo_tensor in[] = {{"inputs[0]", 4, s0, a}, {"inputs[1]", 4, s1, b}};
    demo_tensor outs[] = {{"output", 4, so, out}};
    tmv_tensor_desc in_desc[] = {desc_of(&in[0]), desc_of(&in[1])}, out_desc = desc_of(&outs[0]);
    tmv_join_desc join = {2, in_desc, &out_desc, 3};
    tmv_op_desc op = {TMV_OP_JOIN, &join, TMV_OP_FLAG_NONE};
    const uint32_t *expected[] = {want};
    return run("JOIN, axis 3", &op, in, 2, outs, expected, 1);
}

/* docs/SPEC.md 3: SPLIT along axis 2 into 2, 1 and 3 rows. */
static int demo_split(void)
{
    static const uint32_t si[] = {1, 1, 6, 2}, s0[] = {1, 1, 2, 2}, s1[] = {1, 1, 1, 2}, s2[] = {1, 1, 3, 2};
    uint32_t x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, o0[4], o1[2], o2[6];
    static const uint32_t w0[] = {1, 2, 3, 4}, w1[] = {5, 6}, w2[] = {7, 8, 9, 10, 11, 12};
    demo_tensor in[] = {{"input", 4, si, x}};
    demo_tensor outs[] = {{"outputs[0]", 4, s0, o0}, {"outputs[1]", 4, s1, o1}, {"outputs[2]", 4, s2, o2}};
    tmv_tensor_desc in_desc = desc_of(&in[0]);
    tmv_tensor_desc out_desc[] = {desc_of(&outs[0]), desc_of(&outs[1]), desc_of(&outs[2])};
    tmv_split_desc split = {&in_desc, 3, out_desc, 2};
    tmv_op_desc op = {TMV_OP_SPLIT, &split, TMV_OP_FLAG_NONE};
    const uint32_t *expected[] = {w0, w1, w2};
    return run("SPLIT, axis 2", &op, in, 1, outs, expected, 3);
}

/* docs/SPEC.md 4: TILE a 2x3 block three times down and three times across. */
static int demo_tile(void)
{
    static const uint32_t si[] = {1, 1, 2, 3}, so[] = {1, 1, 6, 9}, repeats[] = {1, 1, 3, 3};
    uint32_t x[] = {1, 2, 3, 4, 5, 6}, out[54], want[54];
    for (uint32_t r = 0; r < 6; r++)
        for (uint32_t c = 0; c < 9; c++)
            want[r * 9 + c] = x[(r % 2) * 3 + c % 3];
    demo_tensor in[] = {{"input", 4, si, x}};
    demo_tensor outs[] = {{"output", 4, so, out}};
    tmv_tensor_desc in_desc = desc_of(&in[0]), out_desc = desc_of(&outs[0]);
    tmv_tile_desc tile = {&in_desc, &out_desc, 4, repeats};
    tmv_op_desc op = {TMV_OP_TILE, &tile, TMV_OP_FLAG_NONE};
    const uint32_t *expected[] = {want};
    return run("TILE, repeats {1,1,3,3}", &op, in, 1, outs, expected, 1);
}

/* docs/SPEC.md 5: the {1,2,4,6} space tensors of seed example 1 (DCR) and 2 (CRD);
 * both map to the same {1,8,2,3} depth tensor, channel k holding 9k .. 9k+5. */
static const uint32_t space_dcr[48] = {0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56,
                                       3,  21, 4,  22, 5,  23, 39, 57, 40, 58, 41, 59,
                                       9,  27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65,
                                       12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68};
static const uint32_t space_crd[48] = {0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29,
                                       3,  12, 4,  13, 5,  14, 21, 30, 22, 31, 23, 32,
                                       36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65,
                                       39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68};

/* SPACE_TO_DEPTH (to_depth) of `space`, or DEPTH_TO_SPACE back to it, B = 2. */
static int demo_depth_space(const char *title, bool to_depth, tmv_depth_space_order order,
                            const uint32_t space[48])
{
    static const uint32_t space_sizes[] = {1, 2, 4, 6}, depth_sizes[] = {1, 8, 2, 3};
    uint32_t space_in[48], depth[48], out[48];
    memcpy(space_in, space, sizeof space_in);
    for (uint32_t k = 0; k < 8; k++)
        for (uint32_t j = 0; j < 6; j++)
            depth[k * 6 + j] = 9 * k + j;
    demo_tensor in[] = {{"input", 4, to_depth ? space_sizes : depth_sizes, to_depth ? space_in : depth}};
    demo_tensor outs[] = {{"output", 4, to_depth ? depth_sizes : space_sizes, out}};
    tmv_tensor_desc in_desc = desc_of(&in[0]), out_desc = desc_of(&outs[0]);
    tmv_space_to_depth_desc s2d = {&in_desc, &out_desc, 2, order};
    tmv_depth_to_space_desc d2s = {&in_desc, &out_desc, 2, order};
    tmv_op_desc op = to_depth ? (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s2d, TMV_OP_FLAG_NONE}
                              : (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &d2s, TMV_OP_FLAG_NONE};
    const uint32_t *expected[] = {to_depth ? depth : space};
    return run(title, &op, in, 1, outs, expected, 1);
}

/* docs/SPEC.md 6, seed example 2: GATHER_ND with one batch dimension. */
static int demo_gather_nd(void)
{
    static const uint32_t si[] = {1, 3, 2, 2}, sx[] = {1, 3, 2, 2}, so[] = {1, 1, 3, 2};
    uint32_t x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    uint32_t idx[] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0}, out[6];
    static const uint32_t want[] = {0, 3, 7, 4, 9, 10};
    demo_tensor in[] = {{"input", 4, si, x}, {"indices", 4, sx, idx}};
    demo_tensor outs[] = {{"output", 4, so, out}};
    tmv_tensor_desc in_desc = desc_of(&in[0]), idx_desc = desc_of(&in[1]), out_desc = desc_of(&outs[0]);
    tmv_gather_nd_desc gather = {&in_desc, &idx_desc, &out_desc, 3, 3, 1};
    tmv_op_desc op = {TMV_OP_GATHER_ND, &gather, TMV_OP_FLAG_NONE};
    const uint32_t *expected[] = {want};
    return run("GATHER_ND, r = q = 3, batch_dim_count 1, uint32 indices", &op, in, 2, outs, expected, 1);
}

/* An invalid TENSORMOVE_ISA (or tuning variable) makes every create fail,
 * while tmv_get_isa still names the best set: create a one-element JOIN to
 * find out, so the demo states the error instead of a kernel set nothing
 * runs on. Returns 0, or 1 after printing the library's message. */
static int environment_error(void)
{
    static const uint32_t one[] = {1};
    const tmv_tensor_desc t = {TMV_DTYPE_UINT8, 1, one, NULL};
    const tmv_join_desc join = {1, &t, &t, 0};
    tmv_op *op = NULL;
    if (tmv_op_create_join(&join, TMV_OP_FLAG_NONE, &op) == TMV_OK) {
        tmv_op_destroy(op);
        return 0;
    }
    fprintf(stderr, "tmv-demo: %s\n", tmv_last_error());
    return 1;
}

int main(void)
{
    if (environment_error())
        return 1;
    const char *isa = tmv_isa_name(tmv_get_isa());
    printf("tensormove %s, kernel set %s\n\n", tmv_version(), isa ? isa : "(unnamed)");

    int failures = 0;
    failures += demo_join();
    failures += demo_split();
    failures += demo_tile();
    /* seed example 1, and seed example 2 read backwards */
    failures += demo_depth_space("SPACE_TO_DEPTH, block 2, DEPTH_COLUMN_ROW (DCR)", true,
                                 TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, space_dcr);
    failures += demo_depth_space("DEPTH_TO_SPACE, block 2, COLUMN_ROW_DEPTH (CRD)", false,
                                 TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH, space_crd);
    failures += demo_gather_nd();

    if (failures) {
        printf("%d of 6 operators failed\n", failures);
        return 1;
    }
    printf("all 6 operators match docs/SPEC.md\n");
    return 0;
}
