/* op.h - the compiled operator: validated copies of the description's tensors and members. */
#ifndef TMV_OP_H
#define TMV_OP_H

#include "kernels.h"
#include "tensor.h"

/* One call of a primitive's kernel. COPY reads inputs[src_buffer] +
 * src_offset (outputs[src_buffer] where src_is_output: TILE's replicas of
 * what an earlier step wrote) and writes outputs[dst_buffer] + dst_offset;
 * the others bind all inputs and outputs as their shapes say. Steps run in
 * order, a parallel step's tasks all done before the next step starts. */
typedef enum tmv_step_kind {
    TMV_STEP_COPY,
    TMV_STEP_JOIN_ROWS,
    TMV_STEP_SPLIT_ROWS,
    TMV_STEP_GATHER
} tmv_step_kind;

typedef struct tmv_step {
    tmv_step_kind     kind;
    const tmv_kernel *kernel;        /* the registry row that runs it */
    uint32_t      src_buffer, dst_buffer;
    uint64_t      src_offset, dst_offset;
    bool          src_is_output;     /* COPY: the source is outputs[src_buffer] */
    void         *state;             /* the kernel's prepared state (kernels.h), or NULL */
    /* Parallel execute (partition.c, decided at create): up to max_tasks
     * tasks, each a run of whole units of the split extent. */
    uint32_t      max_tasks;
    uint32_t      split_rank;        /* outer dims the extent flattens; 0: bytes of a rank-0 copy */
    uint32_t      split_dim;         /* a copy of split_rank 1: the dim it splits (else 0) */
    uint64_t      split_extent;      /* their flattened size (rows x 64-byte chunks for a rows step of rank 2) */
    uint64_t      split_unit;        /* tasks start at multiples of it: 64-byte aligned writes */
    uint64_t      bytes;             /* bytes the step writes */
    const tmv_kernel *stage_kernel;  /* COPY: the chunks' kernel where it runs staged (stage.c), or NULL */
    union {
        struct { tmv_copy_fn run; tmv_copy_shape shape; } copy;
        struct { tmv_join_rows_fn run; tmv_rows_shape shape; } join_rows;
        struct { tmv_split_rows_fn run; tmv_rows_shape shape; } split_rows;
        struct { tmv_gather_fn run; const tmv_gather_shape *shape; } gather;
    } u;
} tmv_step;

/* Where a COPY step reads: its source buffer, bound, plus its offset. */
static inline const uint8_t *tmv_step_copy_src(const tmv_step *step, const void *const *inputs,
                                               void *const *outputs)
{
    const void *base = step->src_is_output ? outputs[step->src_buffer] : inputs[step->src_buffer];
    return (const uint8_t *)base + step->src_offset;
}

struct tmv_op {
    tmv_op_type type;
    uint32_t    flags;
    /* Tensors in buffer-binding order (the order tensormove.h gives): inputs = JOIN's inputs, or the
     * single input, then GATHER_ND's indices; outputs = SPLIT's outputs, or the
     * single output. Both arrays live in the same allocation as the op. */
    uint32_t    input_count;
    uint32_t    output_count;
    tmv_tensor *inputs;
    tmv_tensor *outputs;

    /* Operator members (only those of `type` are meaningful). */
    uint32_t              axis;                     /* JOIN, SPLIT */
    uint32_t              repeats[TMV_MAX_DIMS];    /* TILE, input->dim_count entries */
    uint32_t              block_size;               /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */
    tmv_depth_space_order order;                    /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */
    uint32_t              input_dim_count;          /* GATHER_ND r */
    uint32_t              indices_dim_count;        /* GATHER_ND q */
    uint32_t              batch_dim_count;          /* GATHER_ND b */

    /* The plan (plan.c): immutable after create, so executes may share it. */
    tmv_isa           isa;              /* the kernel set it was planned for */
    tmv_tuning        tuning;           /* what its kernels obey; every shape points here */
    uint32_t          step_count;
    tmv_step         *steps;
    tmv_rows_piece   *pieces;           /* JOIN_ROWS / SPLIT_ROWS pieces */
    tmv_gather_shape *gather;           /* GATHER step's shape */
    uint64_t          bytes;            /* bytes the plan writes (partition.c) */
    char              description[256]; /* tmv_op_describe */
};

/* "join", "split", ... for messages (op.c). */
const char *tmv_op_name(tmv_op_type type);

/* A zeroed op of `type` with room for the given tensor counts; NULL (and the
 * last error set) when out of memory. Free with tmv_op_destroy (op.c). */
tmv_op *tmv_op_alloc(tmv_op_type type, uint32_t input_count, uint32_t output_count);

/* Validates the description behind desc->desc (docs/SPEC.md) and returns a new op
 * holding copies of everything it needs. On failure *out is NULL and the last
 * error names the member (validate.c; each operator's rules are in
 * validate_<op>.c, shared with shape inference through validate.h). */
tmv_status tmv_validate(const tmv_op_desc *desc, tmv_op **out);

/* tmv_op_create with the kernels of set `isa` rather than the current one
 * (tmv_execute's kept operators are planned for the set in their key). */
tmv_status tmv_op_create_for(const tmv_op_desc *desc, tmv_isa isa, tmv_op **out);

/* Lowers a validated op onto primitives with the kernels of set `isa`,
 * under the tuning record (plan.c). TMV_OK or TMV_ERR_OUT_OF_MEMORY. */
tmv_status tmv_plan(tmv_op *op, tmv_isa isa, const tmv_tuning *tuning);
/* Checks the buffers bound at execute (bind.c): arrays and buffers not NULL
 * where the tensor has elements, no output extent meeting an input's or
 * another output's. TMV_OK, TMV_ERR_INVALID_ARGUMENT or TMV_ERR_OVERLAP. */
tmv_status tmv_check_bindings(const tmv_op *op, const void *const *inputs, void *const *outputs);
/* Runs the plan on bound buffers (checked by the caller). */
tmv_status tmv_plan_execute(const tmv_op *op, const void *const *inputs, void *const *outputs);
/* Runs one step of a plan: the plan's own loop, and the per-kernel checker,
 * which runs each step again with another kernel of the same primitive. */
tmv_status tmv_step_execute(const tmv_step *step, const void *const *inputs, void *const *outputs);

#endif
