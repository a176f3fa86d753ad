/* fuzz_seeds.c - tmv-fuzz-seeds DIR: writes the seed corpus committed in tests/fuzz/corpus.
 *
 * For each operator it draws 64-byte strings from a fixed generator (first
 * byte forced to the operator) and keeps the first that decode (fuzz_decode.c)
 * to an uncorrupted description SPEC.md accepts, small enough to execute and
 * with an output that has elements: one per data type up to FZ_SEEDS_PER_OP,
 * the last JOIN and SPLIT seeds with more than 16 pieces. The same program
 * always writes the same files; rerun it after changing the decoder. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_buffers.h"
#include "fuzz_case.h"
#include "fuzz_spec.h"

#define FZ_SEEDS_PER_OP 6
#define FZ_SEED_BYTES 64

/* Whether the case is worth a seed: valid, executable, writes something. */
static bool usable(const fz_case *c, const bool used_dtypes[12], bool want_many)
{
    char why[320];
    if (c->corruption != NULL || c->bind != FZ_BIND_OK || !fz_spec_accepts(c->op_arg, why, sizeof why))
        return false;
    if (want_many && c->pieces_len <= 16)
        return false;
    if (used_dtypes[c->tensors[0].desc->dtype])
        return false;
    fz_buffers *b = fz_buffers_new(c);
    bool writes = false;
    for (uint32_t o = 0; b != NULL && o < b->out_count; o++)
        writes = writes || b->out_len[o] > 0;
    fz_buffers_free(b);
    return writes;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR  (writes the seed corpus into the existing directory DIR)\n", argv[0]);
        return 2;
    }
    for (uint32_t type = TMV_OP_JOIN; type <= TMV_OP_GATHER_ND; type++) {
        bool used_dtypes[12] = {false};
        uint64_t rng = type;
        for (uint32_t found = 0; found < FZ_SEEDS_PER_OP;) {
            uint8_t bytes[FZ_SEED_BYTES];
            for (size_t i = 0; i < sizeof bytes; i++)
                bytes[i] = (uint8_t)(fz_rng_next(&rng) >> 56);
            bytes[0] = (uint8_t)(type - 1); /* the decoder's first choice: the operator */
            fz_case *c = fz_decode(bytes, sizeof bytes);
            const bool want_many = found == FZ_SEEDS_PER_OP - 1 && (type == TMV_OP_JOIN || type == TMV_OP_SPLIT);
            if (usable(c, used_dtypes, want_many)) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s-%u", argv[1], fz_spec_op_name(type), found);
                FILE *f = fopen(path, "wb");
                if (f == NULL || fwrite(bytes, 1, sizeof bytes, f) != sizeof bytes || fclose(f) != 0) {
                    perror(path);
                    return 1;
                }
                used_dtypes[c->tensors[0].desc->dtype] = true;
                found++;
            }
            fz_case_free(c);
        }
    }
    return 0;
}
