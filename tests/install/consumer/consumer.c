/* consumer.c - a program outside the tree: JOINs two tensors through the installed tensormove. */
#include <stdio.h>
#include <string.h>

#include <tensormove.h>

int main(void)
{
    /* docs/SPEC.md 2, seed example: {1,1,2,3} and {1,1,2,4} joined along axis 3. */
    static const uint32_t a_sizes[] = {1, 1, 2, 3}, b_sizes[] = {1, 1, 2, 4}, out_sizes[] = {1, 1, 2, 7};
    const int32_t a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12, 13, 14};
    const int32_t want[] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    int32_t out[14] = {0};

    tmv_tensor_desc inputs[] = {{TMV_DTYPE_INT32, 4, a_sizes, NULL}, {TMV_DTYPE_INT32, 4, b_sizes, NULL}};
    tmv_tensor_desc output = {TMV_DTYPE_INT32, 4, out_sizes, NULL};
    tmv_join_desc join = {2, inputs, &output, 3};
    tmv_op_desc desc = {TMV_OP_JOIN, &join, TMV_OP_FLAG_NONE};

    tmv_op *op;
    tmv_status s = tmv_op_create(&desc, &op);
    if (s == TMV_OK) {
        const void *in_bufs[] = {a, b};
        void *out_bufs[] = {out};
        s = tmv_op_execute(op, in_bufs, out_bufs);
        tmv_op_destroy(op);
    }
    if (s != TMV_OK) {
        fprintf(stderr, "consumer: join failed: %s: %s\n", tmv_status_string(s), tmv_last_error());
        return 1;
    }
    if (memcmp(out, want, sizeof want) != 0) {
        fprintf(stderr, "consumer: join gave the wrong result\n");
        return 1;
    }

    /* The header and the library it was linked with must be one release. */
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", TMV_VERSION_MAJOR, TMV_VERSION_MINOR,
             TMV_VERSION_PATCH);
    if (strcmp(header_version, tmv_version()) != 0) {
        fprintf(stderr, "consumer: header says %s, library says %s\n", header_version, tmv_version());
        return 1;
    }
    printf("consumer: join ok, tensormove %s\n", tmv_version());
    return 0;
}
