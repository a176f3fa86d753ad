/* typed_mismatch.c - compiled by expect_compile_failure.sh: with TMV_TEST_MISMATCH a TILE
 * description goes to the JOIN entry point, which a conforming compiler must reject
 * (incompatible pointer types are a constraint violation); without it, the matching call
 * compiles cleanly, so the failure can only come from the mismatch. */
#include <stddef.h>

#include <tensormove.h>

int main(void)
{
    static const uint32_t sizes[] = {2, 3}, repeats[] = {1, 1};
    const tmv_tensor_desc t = {TMV_DTYPE_FLOAT32, 2, sizes, NULL};
    const tmv_tile_desc tile = {&t, &t, 2, repeats};
    tmv_op *op = NULL;
#ifdef TMV_TEST_MISMATCH
    tmv_status s = tmv_op_create_join(&tile, 0, &op);
#else
    tmv_status s = tmv_op_create_tile(&tile, 0, &op);
#endif
    tmv_op_destroy(op);
    return s == TMV_OK ? 0 : 1;
}
