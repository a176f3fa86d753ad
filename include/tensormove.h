/* tensormove.h - the whole public API of tensormove: DirectML's tensor
 * data-movement operators (JOIN, SPLIT, TILE, SPACE_TO_DEPTH, DEPTH_TO_SPACE,
 * GATHER_ND) on any CPU.
 *
 * C11, usable from C++. Every exported symbol starts with tmv_ (types tmv_*,
 * macros TMV_*). The description structs mirror DirectML's operator structs
 * member by member, in the same order, snake_cased, so code written against
 * DirectML maps one to one.
 *
 * Usage: describe an operator (tmv_op_desc), compile it once with
 * tmv_op_create (or its typed twin, e.g. tmv_op_create_join), run it any number of times, from any number of threads at
 * once, with tmv_op_execute, free it with tmv_op_destroy. tmv_execute does all
 * three in one call, and keeps the operators of the last descriptions it was
 * given (see tmv_execute).
 *
 * Tensors (see docs/SPEC.md section 1):
 *  - element (i0, ..., i[n-1]) lives at element offset sum(i[d] * strides[d])
 *    from the buffer's base pointer; strides are in elements, unsigned;
 *    strides == NULL means packed row-major (last dimension fastest);
 *  - a dimension of size 1 contributes nothing to any offset (its stride is
 *    ignored); a stride of 0 on an input broadcasts;
 *  - an output must not map two coordinates to one element. tensormove checks
 *    this conservatively: ordered by stride, every dimension of size > 1 must
 *    have a stride at least the element extent of all dimensions with smaller
 *    strides (packed, padded and permuted layouts all pass);
 *  - a size of 0 means the tensor holds no elements; its buffer may be NULL.
 *    An operator whose outputs hold no elements writes and reads nothing and
 *    succeeds (GATHER_ND then checks no indices);
 *  - all offset arithmetic is 64-bit; a tensor's byte extent (lowest to just
 *    past highest addressed byte) must fit in size_t.
 *
 * Promises:
 *  - tmv_op_execute allocates no memory and takes no lock, with one exception:
 *    a SPLIT with more than 512 outputs bound in neither ascending nor
 *    descending address order mallocs scratch for its overlap check (see
 *    tmv_op_execute). (On glibc, a thread's first failed call into a library
 *    loaded with dlopen may make the C runtime allocate that thread's block
 *    for the thread-local error message.) tmv_execute allocates when it
 *    creates an operator (a description it does not keep one for) and takes
 *    a mutex briefly to find a kept one.
 *  - Buffers need no particular alignment: kernels load and store unaligned
 *    and use aligned (streaming) stores only after aligning to them. The
 *    tests place buffers at odd element-aligned offsets (offsets that split
 *    an element are not tested). Speed is another matter: past the stream
 *    threshold most kernels stream only to an output that starts on a
 *    64-byte line. Off a line, a TILE / SPACE_TO_DEPTH / DEPTH_TO_SPACE /
 *    JOIN / SPLIT step of theirs runs staged (chunks through a 32 KiB buffer
 *    on the executing thread's stack, then streamed out, a parallel
 *    execute's tasks each their own part; tmv_op_describe says "staged
 *    by"), at about 0.7x of its line-aligned speed; GATHER_ND stores
 *    through the cache (malloc's 16 bytes past a line
 *    cost 0.67x at 64 MiB in geometric mean, up to 4x for TILE broadcasts,
 *    before staging): give large outputs 64-byte alignment.
 *  - Data moves bit for bit, so any element type of the same width works
 *    through the type of that width: bfloat16 or any fp16 variant as
 *    UINT16, fp8 (E4M3, E5M2) as UINT8, a pair of int4 values packed in a
 *    byte as UINT8 (the operator then moves whole pairs: sizes count bytes),
 *    complex64 as UINT64.
 *  - Create costs far more than execute: about 0.6-0.9 us for a small
 *    operator with tmv_op_destroy (docs/PERFORMANCE.md: 656 ns for the
 *    one-shot tmv_execute), against 20-40 ns for executing it; more with
 *    many JOIN/SPLIT pieces. Engines should create an operator once per
 *    shape and cache it (operators are immutable and may be executed by any
 *    number of threads at once).
 *
 * Binding buffers: tmv_op_execute takes `const void *const *inputs`. In C,
 * `void *ins[]` does not convert to that without a cast (only the first
 * level may gain const implicitly), so gcc and clang warn
 * (-Wincompatible-pointer-types); declare the input array as
 * `const void *ins[] = {a, b};` and the output array as
 * `void *outs[] = {out};`, as the README's example does.
 */
#ifndef TENSORMOVE_H
#define TENSORMOVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TMV_API marks every exported function. On Windows it is
 * __declspec(dllexport) while the library itself is built (the build defines
 * TMV_BUILDING_LIBRARY; TENSORMOVE_SHARED_BUILD, the earlier spelling, is
 * accepted too), nothing for a program linking the static library (define
 * TMV_STATIC; the CMake target tensormove::tensormove_static does it for
 * you), and __declspec(dllimport) for a program using the DLL. Elsewhere it
 * is visibility("default") (the library hides every other symbol). */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TMV_BUILDING_LIBRARY) || defined(TENSORMOVE_SHARED_BUILD)
#define TMV_API __declspec(dllexport)
#elif defined(TMV_STATIC)
#define TMV_API
#else
#define TMV_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define TMV_API __attribute__((visibility("default")))
#else
#define TMV_API
#endif

/* TMV_NODISCARD marks every function returning a tmv_status: ignoring the
 * status is a compiler warning ([[nodiscard]] in C23 and C++17, else GCC and
 * clang's warn_unused_result, else MSVC's _Check_return_). Under GCC's
 * warn_unused_result a (void) cast does not silence it: check the status.
 * Define TMV_NODISCARD (e.g. to nothing) before including this header to
 * override it. */
#ifndef TMV_NODISCARD
#if defined(__cplusplus) && __cplusplus >= 201703L
#define TMV_NODISCARD [[nodiscard]]
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L && \
    defined(__has_c_attribute)
#if __has_c_attribute(nodiscard)
#define TMV_NODISCARD [[nodiscard]]
#endif
#endif
#ifndef TMV_NODISCARD
#if defined(__GNUC__)
#define TMV_NODISCARD __attribute__((warn_unused_result))
#elif defined(_MSC_VER)
#define TMV_NODISCARD _Check_return_
#else
#define TMV_NODISCARD
#endif
#endif
#endif

/* The version of this header. TMV_VERSION is one comparable number,
 * MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100, 1.2.3 would be 10203);
 * tmv_version_number() gives the library's at run time.
 *
 * Compatibility policy. A patch release changes no declaration. A minor
 * release only adds: functions, enumerators (statuses, data types, kernel
 * sets, flags), macros, and new description structs with their own
 * operator type and typed create function. It never removes a name, changes
 * a function's signature or a value's meaning, or changes the layout of an
 * existing struct: a program built against 0.1 runs unchanged against any
 * later 0.x library (the shared library's SONAME carries the major,
 * libtensormove.so.0), and recompiles unchanged against any later 0.x header.
 * Only a major release breaks any of this. Descriptions carry no size or
 * version member: like DirectML, which added DML_GATHER_ND1_OPERATOR_DESC
 * beside DML_GATHER_ND_OPERATOR_DESC rather than growing it, tensormove grows
 * a description by adding a new struct (and operator type) beside the old
 * one, so the member-by-member mapping onto DirectML holds and no caller has
 * to fill a size. Callers should treat a status they do not know as an error
 * and pass 0 for flags they do not use. */
#define TMV_VERSION_MAJOR 0
#define TMV_VERSION_MINOR 1
#define TMV_VERSION_PATCH 0
#define TMV_VERSION (TMV_VERSION_MAJOR * 10000 + TMV_VERSION_MINOR * 100 + TMV_VERSION_PATCH)

/* The most dimensions a tensor may have. */
#define TMV_MAX_DIMS 8

/* The most inputs a JOIN (input_count) and the most outputs a SPLIT
 * (output_count) may have: 2^20. tmv_op_create rejects a larger count with
 * TMV_ERR_INVALID_ARGUMENT before it allocates anything, so a garbage count
 * cannot ask for gigabytes. An operator holds a copy of each piece's
 * description and, for layouts JOIN/SPLIT cannot treat as rows, one step per
 * piece: up to about 600 bytes a piece on 64-bit targets. */
#define TMV_MAX_PIECES (1u << 20)

/* Element data types, with DirectML's numbering. Data movement copies bits:
 * floating-point values are never converted (NaN payloads and -0.0 survive). */
typedef enum tmv_dtype {
    TMV_DTYPE_FLOAT32 = 1,  /* 4 bytes */
    TMV_DTYPE_FLOAT16 = 2,  /* 2 bytes */
    TMV_DTYPE_UINT32 = 3,   /* 4 bytes */
    TMV_DTYPE_UINT16 = 4,   /* 2 bytes */
    TMV_DTYPE_UINT8 = 5,    /* 1 byte  */
    TMV_DTYPE_INT32 = 6,    /* 4 bytes */
    TMV_DTYPE_INT16 = 7,    /* 2 bytes */
    TMV_DTYPE_INT8 = 8,     /* 1 byte  */
    TMV_DTYPE_FLOAT64 = 9,  /* 8 bytes */
    TMV_DTYPE_UINT64 = 10,  /* 8 bytes */
    TMV_DTYPE_INT64 = 11    /* 8 bytes */
} tmv_dtype;

/* A tensor description (DML_BUFFER_TENSOR_DESC's shape part). The arrays are
 * read during tmv_op_create only and may be freed after it returns. */
typedef struct tmv_tensor_desc {
    tmv_dtype       dtype;
    uint32_t        dim_count;      /* 1..TMV_MAX_DIMS */
    const uint32_t *sizes;          /* dim_count entries */
    const uint32_t *strides;        /* NULL = packed row-major; else dim_count element strides */
} tmv_tensor_desc;

/* SPACE_TO_DEPTH / DEPTH_TO_SPACE channel order (DML_DEPTH_SPACE_ORDER). */
typedef enum tmv_depth_space_order {
    TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW = 0,  /* ONNX DCR */
    TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH = 1   /* ONNX CRD */
} tmv_depth_space_order;

/* JOIN (concatenate inputs along axis); DML_JOIN_OPERATOR_DESC. */
typedef struct tmv_join_desc {
    uint32_t               input_count;  /* 1..TMV_MAX_PIECES */
    const tmv_tensor_desc *inputs;       /* input_count descriptions */
    const tmv_tensor_desc *output;
    uint32_t               axis;         /* < output->dim_count */
} tmv_join_desc;

/* SPLIT (the inverse of JOIN); DML_SPLIT_OPERATOR_DESC. */
typedef struct tmv_split_desc {
    const tmv_tensor_desc *input;
    uint32_t               output_count; /* 1..TMV_MAX_PIECES */
    const tmv_tensor_desc *outputs;      /* output_count descriptions */
    uint32_t               axis;         /* < input->dim_count */
} tmv_split_desc;

/* TILE; DML_TILE_OPERATOR_DESC. output.sizes[d] = input.sizes[d] * repeats[d];
 * a repeat of 0 is allowed (as in ONNX) and gives an empty output. */
typedef struct tmv_tile_desc {
    const tmv_tensor_desc *input;
    const tmv_tensor_desc *output;
    uint32_t               repeats_count; /* == input->dim_count */
    const uint32_t        *repeats;
} tmv_tile_desc;

/* SPACE_TO_DEPTH: 4-D {N,C,H,W} -> {N, C*B*B, H/B, W/B};
 * DML_SPACE_TO_DEPTH1_OPERATOR_DESC. */
typedef struct tmv_space_to_depth_desc {
    const tmv_tensor_desc *input;
    const tmv_tensor_desc *output;
    uint32_t               block_size;   /* B >= 1; divides H and W */
    tmv_depth_space_order  order;
} tmv_space_to_depth_desc;

/* DEPTH_TO_SPACE: 4-D {N, C*B*B, H, W} -> {N, C, H*B, W*B};
 * DML_DEPTH_TO_SPACE1_OPERATOR_DESC. */
typedef struct tmv_depth_to_space_desc {
    const tmv_tensor_desc *input;
    const tmv_tensor_desc *output;
    uint32_t               block_size;   /* B >= 1; B*B divides the channels */
    tmv_depth_space_order  order;
} tmv_depth_to_space_desc;

/* GATHER_ND; DML_GATHER_ND1_OPERATOR_DESC. input, indices and output share a
 * dimension count n; only the last input_dim_count (r) dimensions of the
 * input and the last indices_dim_count (q) of the indices are meaningful.
 * Indices are INT32, INT64, UINT32 or UINT64. */
typedef struct tmv_gather_nd_desc {
    const tmv_tensor_desc *input;
    const tmv_tensor_desc *indices;
    const tmv_tensor_desc *output;
    uint32_t               input_dim_count;   /* r, 1..n */
    uint32_t               indices_dim_count; /* q, 1..n */
    uint32_t               batch_dim_count;   /* b < min(r, q) */
} tmv_gather_nd_desc;

typedef enum tmv_op_type {
    TMV_OP_JOIN = 1,          /* desc: tmv_join_desc */
    TMV_OP_SPLIT,             /* desc: tmv_split_desc */
    TMV_OP_TILE,              /* desc: tmv_tile_desc */
    TMV_OP_SPACE_TO_DEPTH,    /* desc: tmv_space_to_depth_desc */
    TMV_OP_DEPTH_TO_SPACE,    /* desc: tmv_depth_to_space_desc */
    TMV_OP_GATHER_ND          /* desc: tmv_gather_nd_desc */
} tmv_op_type;

typedef enum tmv_op_flags {
    TMV_OP_FLAG_NONE = 0,
    /* GATHER_ND: clamp out-of-range indices instead of failing, as DirectML
     * and WebNN implementations do: a signed index is clamped into
     * [-size, size-1] and then, if negative, has size added; an unsigned one
     * is clamped to size-1. Ignored by the other operators. */
    TMV_OP_FLAG_CLAMP_INDICES = 1
} tmv_op_flags;

typedef struct tmv_op_desc {
    tmv_op_type type;
    const void *desc;               /* points to the tmv_<op>_desc named by type */
    uint32_t    flags;              /* tmv_op_flags, OR-ed; 0 for the default;
                                       unknown bits are rejected */
} tmv_op_desc;

/* An opaque compiled operator. Immutable after tmv_op_create. */
typedef struct tmv_op tmv_op;

/* Every status a function can return. tmv_status_string names each. */
typedef enum tmv_status {
    TMV_OK = 0,
    /* A malformed description or call: NULL where a description, array or
     * buffer is required, dim_count 0 or > 8, an unknown data type, order,
     * operator type or flag, mismatched data types, dimension counts or sizes,
     * axis / block_size / repeats / dimension counts out of range, a JOIN
     * input_count or SPLIT output_count above TMV_MAX_PIECES, an output
     * mapping two coordinates to one element, a byte extent that overflows. */
    TMV_ERR_INVALID_ARGUMENT,
    /* At execute: an output's byte extent meets an input's or another
     * output's. Nothing is written. */
    TMV_ERR_OVERLAP,
    /* At execute, GATHER_ND without TMV_OP_FLAG_CLAMP_INDICES: an index lies
     * outside [-size, size) (signed) or [0, size) (unsigned) of its input
     * dimension. Nothing is written. */
    TMV_ERR_INDEX_OUT_OF_RANGE,
    /* An allocation failed. */
    TMV_ERR_OUT_OF_MEMORY,
    /* The kernel set asked for does not exist or this CPU lacks it
     * (tmv_set_isa), or the environment variable TENSORMOVE_ISA names no
     * kernel set this CPU has; in the latter case every tmv_op_create and
     * tmv_execute fails with this status until tmv_set_isa picks a valid set. */
    TMV_ERR_UNSUPPORTED_ISA,
    /* This build of the library lacks the feature: tmv_thread_pool_create in
     * a build configured with TENSORMOVE_THREAD_POOL=OFF. */
    TMV_ERR_UNSUPPORTED
} tmv_status;

/* Compiles an operator: validates the description against docs/SPEC.md, copies
 * every array it needs (the caller's description may die after this returns)
 * and plans the kernels. On success *out receives the operator, to be freed
 * with tmv_op_destroy. On failure *out is set to NULL (when out is not NULL).
 * Returns TMV_OK, TMV_ERR_INVALID_ARGUMENT, TMV_ERR_OUT_OF_MEMORY or
 * TMV_ERR_UNSUPPORTED_ISA. TMV_ERR_INVALID_ARGUMENT also comes, for every
 * create, while a tuning variable of the environment is malformed or out of
 * range: TENSORMOVE_STREAM_THRESHOLD (bytes from which kernels store
 * non-temporally, 1 to 2^63) or TENSORMOVE_GATHER_PREFETCH (index tuples a
 * row gather prefetches ahead, or at least, 0 to 64), TENSORMOVE_TASK_MIN_BYTES
 * (the fewest bytes a parallel task moves, 1 to 2^40) or TENSORMOVE_COST_TABLE
 * (a cost table's name, tmv_cost_table_name); the message names the variable.
 * They are read once, at the first call into the library. Thread-safe. */
TMV_NODISCARD TMV_API tmv_status tmv_op_create(const tmv_op_desc *desc, tmv_op **out);

/* Typed entry points: tmv_op_create_<op>(desc, flags, out) is exactly
 * tmv_op_create on {TMV_OP_<OP>, desc, flags} -- same checks, statuses and
 * messages, same operator -- but the compiler checks that desc is the
 * operator's own description, so a tmv_tile_desc cannot be read as a join. */
TMV_NODISCARD TMV_API tmv_status tmv_op_create_join(const tmv_join_desc *desc, uint32_t flags,
                                                    tmv_op **out);
TMV_NODISCARD TMV_API tmv_status tmv_op_create_split(const tmv_split_desc *desc, uint32_t flags,
                                                     tmv_op **out);
TMV_NODISCARD TMV_API tmv_status tmv_op_create_tile(const tmv_tile_desc *desc, uint32_t flags,
                                                    tmv_op **out);
TMV_NODISCARD TMV_API tmv_status tmv_op_create_space_to_depth(const tmv_space_to_depth_desc *desc,
                                                              uint32_t flags, tmv_op **out);
TMV_NODISCARD TMV_API tmv_status tmv_op_create_depth_to_space(const tmv_depth_to_space_desc *desc,
                                                              uint32_t flags, tmv_op **out);
TMV_NODISCARD TMV_API tmv_status tmv_op_create_gather_nd(const tmv_gather_nd_desc *desc,
                                                         uint32_t flags, tmv_op **out);

/* Shape inference: the sizes output number `output` of desc must have,
 * packed row-major, as tmv_op_create requires them: *dim_count receives its
 * dimension count and sizes[0..*dim_count) its sizes. `output` is 0, or for
 * SPLIT 0..output_count-1.
 * The output description is not read, so it may be NULL (JOIN's and the
 * single-output operators' `output`) -- with one exception: SPLIT's output
 * sizes along the axis cannot be inferred, so SPLIT reads every outputs[i]'s
 * dim_count (which must equal the input's) and sizes[axis] (which must add
 * up to the input's), and nothing else of them.
 * Everything else is checked as tmv_op_create checks it, by the same code
 * with the same messages: the tmv_op_desc, the flags, the inputs, the
 * members (axis, repeats, block_size, order, GATHER_ND's counts and
 * placeholder and batch sizes). Where create compares a JOIN input with the
 * output, inference compares it with inputs[0] ("join: inputs[1].sizes[0]
 * is 3 but inputs[0].sizes[0] is 2"). An output size that would not fit in
 * uint32_t is rejected. Inference depends on no kernel set or environment
 * variable, allocates nothing and does not create an operator.
 * Returns TMV_OK or TMV_ERR_INVALID_ARGUMENT (dim_count or sizes NULL, or
 * what create would reject); on failure *dim_count is 0 (when dim_count is
 * not NULL) and sizes is left as it was. Thread-safe. */
TMV_NODISCARD TMV_API tmv_status tmv_infer_output_sizes(const tmv_op_desc *desc, uint32_t output,
                                                        uint32_t *dim_count,
                                                        uint32_t sizes[TMV_MAX_DIMS]);

/* ---- GATHER_ND from ONNX-style ranks ----
 * ONNX GatherND takes data of rank r and indices of rank q at their own
 * ranks; GATHER_ND wants input, indices and output at one dimension count n,
 * with input_dim_count = r and indices_dim_count = q (docs/SPEC.md 6.8,
 * docs/ONNX.md). tmv_gather_nd_desc_from_onnx does that padding. */

/* A GATHER_ND description built from ONNX-style ranks, with the arrays it
 * points to. It points into itself: fill it in place and do not copy it (a
 * copy's pointers would still point into the original). */
typedef struct tmv_gather_nd_onnx {
    /* The ONNX shapes left-padded with 1s to n = max(r, q, m) dimensions. */
    uint32_t           input_sizes[TMV_MAX_DIMS];
    uint32_t           indices_sizes[TMV_MAX_DIMS];
    uint32_t           output_sizes[TMV_MAX_DIMS];   /* O right-aligned (SPEC.md 6.3) */
    /* The caller's strides behind padding strides of 0 (a size-1 dimension's
     * stride is never used); pointed to only when the caller gave strides. */
    uint32_t           input_strides[TMV_MAX_DIMS];
    uint32_t           indices_strides[TMV_MAX_DIMS];
    /* m, ONNX's output rank, q - 1 + r - batch_dims - k (0 for a scalar):
     * the ONNX output shape is output_sizes[n - m .. n - 1]. */
    uint32_t           output_rank;
    tmv_tensor_desc    input;    /* data's dtype and strides, n dimensions */
    tmv_tensor_desc    indices;  /* indices' dtype and strides, n dimensions */
    tmv_tensor_desc    output;   /* data's dtype, packed (strides NULL), n dimensions */
    /* Ready for tmv_op_create_gather_nd: points at the three tensors above,
     * input_dim_count = r, indices_dim_count = q, batch_dim_count = batch_dims. */
    tmv_gather_nd_desc desc;
} tmv_gather_nd_onnx;

/* Fills *out with the GATHER_ND description of ONNX GatherND on `data`
 * (rank r = data->dim_count) and `indices` (rank q = indices->dim_count,
 * last size k, the index tuple length) with ONNX's batch_dims: the shapes
 * and strides padded to n = max(r, q, m) dimensions, and the output's sizes
 * by ONNX's rule, indices.shape[:-1] + data.shape[batch_dims + k:], padded
 * too. Pass &out->desc to tmv_op_create_gather_nd; bind data, indices and
 * the output buffers as they are (padding adds no elements). For an output
 * in another layout, point out->output.strides at n strides of your own
 * before creating. data and indices are read during this call only.
 * Checks, in ONNX's terms: data and indices well-formed tensor descriptions
 * (as tmv_op_create checks them), batch_dims < min(r, q),
 * 1 <= k <= r - batch_dims, data.sizes[j] == indices.sizes[j] for
 * j < batch_dims, m <= TMV_MAX_DIMS; then the padded description as
 * tmv_infer_output_sizes checks it (e.g. the indices' type), with its
 * messages. Returns TMV_OK or TMV_ERR_INVALID_ARGUMENT (out NULL, or a
 * rule broken; the message names the member and the numbers, e.g.
 * "gather_nd_desc_from_onnx: indices.sizes[1] (k, the index tuple length)
 * is 3 but must be 1 to 2 (data's rank 2 - batch_dims 0)"); on failure *out
 * is zeroed (when out is not NULL). Allocates nothing; thread-safe. */
TMV_NODISCARD TMV_API tmv_status tmv_gather_nd_desc_from_onnx(const tmv_tensor_desc *data,
                                                              const tmv_tensor_desc *indices,
                                                              uint32_t batch_dims,
                                                              tmv_gather_nd_onnx *out);

/* Runs a compiled operator. Buffers are bound in the order the description
 * lists tensors: inputs[] = JOIN's inputs, or the single input, then
 * GATHER_ND's indices; outputs[] = SPLIT's outputs, or the single output.
 * A buffer may be NULL only for a tensor with no elements. The caller keeps
 * ownership of every buffer.
 * Returns TMV_OK, TMV_ERR_INVALID_ARGUMENT (op, inputs or outputs NULL, or a
 * NULL buffer for a tensor with elements), TMV_ERR_OVERLAP, (GATHER_ND)
 * TMV_ERR_INDEX_OUT_OF_RANGE or (SPLIT, see below) TMV_ERR_OUT_OF_MEMORY; on
 * any error no output byte is written.
 * The overlap check of outputs against each other takes one pass when the
 * outputs holding elements are bound in ascending or descending address order
 * (each output's extent wholly after, or wholly before, the previous one's),
 * compares every pair for up to 16 outputs in neither order, and takes
 * O(n log n) time for n outputs past that. Execute allocates no memory,
 * with one exception: a SPLIT with more than 512 outputs bound in neither
 * order mallocs scratch for sorting them (24 bytes per output on 64-bit
 * targets), freed before it returns, and fails with TMV_ERR_OUT_OF_MEMORY
 * (the message names the operator and the output count) if that fails.
 * Thread-safe: any number of threads may execute the same operator at once
 * (on distinct outputs). */
TMV_NODISCARD TMV_API tmv_status tmv_op_execute(const tmv_op *op, const void *const *inputs,
                                                void *const *outputs);

/* What the operator will run, e.g. "join: join_rows/avx2" or
 * "split: copy_w4/scalar x3": the operator, then each kernel of its plan with
 * the set it comes from; "tile: copy_permute/avx512vbmi (off a line: staged
 * by fill_period/avx2)" where a step that streams its stores runs through a
 * staging buffer when its output does not start on a 64-byte line. Owned by op, valid until tmv_op_destroy; "" for NULL.
 * Thread-safe. */
TMV_API const char *tmv_op_describe(const tmv_op *op);

/* Frees an operator. NULL is ignored. The operator must not be executing. */
TMV_API void tmv_op_destroy(tmv_op *op);

/* One-shot convenience: create, execute, destroy -- except that the library
 * keeps the operators of the last 16 descriptions tmv_execute was given
 * (process-wide, the least recently used one making room), found by the
 * description's contents and the current kernel set (tmv_set_isa), not by
 * its addresses: calling it again with an equal description skips the
 * create (small JOIN: about 60-110 ns a call instead of 0.7-0.8 us;
 * docs/PERFORMANCE.md). Descriptions that create rejects are not kept (the
 * same error every time), nor JOINs and SPLITs of more than 64 pieces or
 * descriptions longer than 2 KiB as a key. The (at most 16) kept operators
 * stay allocated until the process ends. Returns any status of tmv_op_create or tmv_op_execute.
 * Thread-safe: an operator in use by one thread is never given up by
 * another. */
TMV_NODISCARD TMV_API tmv_status tmv_execute(const tmv_op_desc *desc, const void *const *inputs,
                                             void *const *outputs);

/* ---- Parallel execution ----
 * An operator can run on many threads through the caller's thread pool,
 * described by a tmv_parallel shaped like pthreadpool_parallelize_1d, so
 * pthreadpool, OpenMP, ONNX Runtime's or oneDNN's pools adapt in a few lines
 * (README "Parallel execution"); tmv_thread_pool_create gives one for callers
 * that have none. */

/* One task of a parallel loop: index in [0, count). */
typedef void (*tmv_task_fn)(void *task_context, size_t index);

typedef struct tmv_parallel {
    void    *pool;          /* the caller's pool, passed back to parallelize */
    uint32_t thread_count;  /* threads parallelize may run at once, >= 1 */
    /* Runs task(task_context, i) for every i in [0, count), possibly on
     * several threads at once, and returns when all have finished. */
    void   (*parallelize)(void *pool, tmv_task_fn task, void *task_context, size_t count);
} tmv_parallel;

/* tmv_op_execute on up to parallel->thread_count threads: each step of the
 * plan is split, at create, into tasks of at least 128 KiB of output each
 * (the environment variable TENSORMOVE_TASK_MIN_BYTES, 1 to 2^40, sets
 * another size), balanced by bytes and cut at whole cache lines of the
 * output where the layout allows, so a small operator runs on the calling
 * thread with no call to parallelize at all. A GATHER_ND step checks its
 * index tuples in one parallel pass (with the kernel's own vector check)
 * and copies, without checking again, in a second one.
 * parallel == NULL, or thread_count 1, is exactly tmv_op_execute. Output bytes are identical for every thread count; every
 * check (buffers, overlaps, GATHER_ND indices) happens before any task
 * writes, so on an error no output byte is written, as with tmv_op_execute.
 * Allocates nothing beyond tmv_op_execute. Thread-safe: any number of
 * threads may run it on one operator at once, with their own pools or a
 * shared one. Returns the statuses of tmv_op_execute, or
 * TMV_ERR_INVALID_ARGUMENT for a parallel with thread_count 0 or no
 * parallelize function. */
TMV_NODISCARD TMV_API tmv_status tmv_op_execute_parallel(const tmv_op *op, const void *const *inputs,
                                                         void *const *outputs, const tmv_parallel *parallel);

/* A pool of `threads` threads (0: one per online CPU), built on pthreadpool,
 * ready to pass to tmv_op_execute_parallel; *out receives it, to be freed
 * with tmv_thread_pool_destroy. Its thread_count counts the calling thread,
 * which works too. Calls from several threads into one pool take turns.
 * Returns TMV_OK, TMV_ERR_INVALID_ARGUMENT (out NULL), TMV_ERR_OUT_OF_MEMORY
 * (the threads could not be started) or TMV_ERR_UNSUPPORTED (a build
 * configured with TENSORMOVE_THREAD_POOL=OFF; pass your own pool then). */
TMV_NODISCARD TMV_API tmv_status tmv_thread_pool_create(uint32_t threads, tmv_parallel **out);

/* Stops the pool's threads and frees it. NULL is ignored. No execute may be
 * using it. */
TMV_API void tmv_thread_pool_destroy(tmv_parallel *pool);

/* Bytes per element of a data type (1, 2, 4 or 8); 0 for a value that names
 * no tmv_dtype. Thread-safe. */
TMV_API uint32_t tmv_dtype_size(tmv_dtype dtype);

/* A static name for a status ("TMV_OK", "TMV_ERR_OVERLAP", ...); "unknown
 * status" for a value that names none. Never NULL. */
TMV_API const char *tmv_status_string(tmv_status s);

/* The message of the last failed call on this thread, e.g.
 * "join: inputs[1].sizes[2] is 3 but output.sizes[2] is 2"; "" if no call on
 * this thread has failed. Successful calls leave it unchanged. The pointer
 * stays valid on this thread until its next tensormove call. */
TMV_API const char *tmv_last_error(void);

/* Kernel sets. The best one this CPU has is chosen once, at the first call
 * that needs it; the environment variable TENSORMOVE_ISA (a name from
 * tmv_isa_name, e.g. "scalar" or "avx2") caps it; tmv_set_isa caps it at run
 * time. A cap takes the best set at or below it in the same family (x86 or
 * Arm); scalar is below every set. An operator runs the kernels of the set in
 * force when it was created (tmv_op_describe names them). */
typedef enum tmv_isa {
    TMV_ISA_SCALAR = 0,       /* "scalar": portable C, available everywhere */
    TMV_ISA_SSE2 = 1,         /* "sse2": x86-64 baseline */
    TMV_ISA_AVX2 = 2,         /* "avx2" */
    TMV_ISA_AVX512 = 3,       /* "avx512": AVX-512 F, BW, DQ, VL */
    TMV_ISA_AVX512_VBMI = 4,  /* "avx512vbmi": AVX-512 plus VBMI and VBMI2 byte permutes */
    TMV_ISA_NEON = 16,        /* "neon": AArch64 Advanced SIMD */
    TMV_ISA_NEON_SIMDE = 17   /* "neon-simde": the NEON kernels built for x86 through
                                 SIMDe's emulation, to test them off Arm; never chosen
                                 by default, only by TENSORMOVE_ISA or tmv_set_isa */
} tmv_isa;

/* The kernel set operators created now will use (while TENSORMOVE_ISA is
 * invalid, the best set this CPU has, though creates fail). Thread-safe. */
TMV_API tmv_isa tmv_get_isa(void);
/* Caps the kernel set for operators created from now on (existing operators
 * keep theirs). Returns TMV_OK, or TMV_ERR_UNSUPPORTED_ISA for a value that
 * names no kernel set or one this CPU lacks. Thread-safe. */
TMV_NODISCARD TMV_API tmv_status tmv_set_isa(tmv_isa isa);
/* The set's name as TENSORMOVE_ISA spells it ("scalar", ...); NULL for a
 * value that names no kernel set. Sets this CPU lacks have names too. */
TMV_API const char *tmv_isa_name(tmv_isa isa);
/* The kernel sets this CPU can run (tmv_set_isa accepts each), scalar first
 * and each family in ascending order: writes up to `capacity` of them to
 * `out` (which may be NULL when capacity is 0) and returns how many there
 * are in all. Thread-safe. */
TMV_API uint32_t tmv_isa_list(tmv_isa *out, uint32_t capacity);
/* The cost table the planner rates kernels by when an operator is created:
 * prices fitted per microarchitecture, chosen once from the CPU's vendor and
 * family ("zen5" for AMD family 26; "xeon" for Intel family 6; "zen4", the
 * default, for any other CPU),
 * or the one the environment variable TENSORMOVE_COST_TABLE names (a bad
 * name fails every create, as a bad tuning variable does). The table changes
 * which kernels a plan runs, never what it computes. Thread-safe. */
TMV_API const char *tmv_cost_table_name(void);
/* The library version, "MAJOR.MINOR.PATCH". */
TMV_API const char *tmv_version(void);
/* The library version as one number, MAJOR * 10000 + MINOR * 100 + PATCH:
 * the TMV_VERSION of the header the library was built from (compare it with
 * the TMV_VERSION a program was compiled against). Thread-safe. */
TMV_API uint32_t tmv_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* TENSORMOVE_H */
