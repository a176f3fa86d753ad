/* lower_tile.c - TILE as a broadcast copy (each dim d a (repeat, period) pair with a 0 source stride on the
 * repeat), its outer repeats as copies of the output's first replica. */
#include <string.h>

#include "cost.h"
#include "lower.h"

/* Appends a dim of `size` positions, strides in bytes, to s. */
static void add_dim(tmv_copy_shape *s, uint64_t size, uint64_t src_stride, uint64_t dst_stride)
{
    s->sizes[s->rank] = size;
    s->src_strides[s->rank] = src_stride;
    s->dst_strides[s->rank] = dst_stride;
    s->rank++;
}

/* The copy shapes of a TILE plan, over (repeat, period) dims, the repeat
 * with a 0 source stride (out[..., r * in_d + i, ...] = in[..., i, ...]).
 * From the input: dims d < copied write their period once (repeat 0), the
 * others all their repeats. From the output: dim `copied`'s first replica
 * (its period, every output position of the dims inside it, repeat 0 of
 * the dims outside) onto its repeats 1 to repeats - 1, with the output's
 * strides on both sides. */
static tmv_copy_shape tile_shape(const tmv_op *op, uint32_t copied, bool from_output)
{
    const tmv_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    tmv_copy_shape s;
    memset(&s, 0, sizeof s);
    s.elem_bytes = in->elem_size;
    for (uint32_t d = 0; d < in->dim_count; d++) {
        const uint64_t out_stride = out->strides[d] * out->elem_size;
        if (from_output ? d == copied : d >= copied)
            add_dim(&s, op->repeats[d] - from_output, 0, in->sizes[d] * out_stride);
        if (from_output)
            add_dim(&s, d > copied ? out->sizes[d] : in->sizes[d], out_stride, out_stride);
        else
            add_dim(&s, in->sizes[d], in->strides[d] * in->elem_size, out_stride);
    }
    return s;
}

/* Whether the output is dense (no gaps): only then is a replica a run of
 * whole rows, and its copy cheaper than broadcasting it again. */
static bool output_dense(const tmv_op *op)
{
    const tmv_tensor *out = &op->outputs[0];
    uint64_t inner = 1;
    for (uint32_t d = out->dim_count; d-- > 0; inner *= out->sizes[d])
        if (out->sizes[d] > 1 && out->strides[d] != inner)
            return false;
    return true;
}

/* What the cost model prices a copy step of `shape` at (cost.h), within
 * the whole TILE's working set (its steps run one after another over the
 * same output; past the caches a replica is read back from memory and
 * priced at DRAM's floor), or a negative value when it cannot rate it (a
 * kernel with no profile, such as a streaming one). 0 for a shape that
 * moves nothing. */
static double copy_cost(const tmv_op *op, tmv_copy_shape shape)
{
    if (!tmv_shape_normalize(&shape))
        return 0;
    shape.tuning = &op->tuning;
    const double working_set = (double)(op->inputs[0].extent_bytes + op->outputs[0].extent_bytes);
    return tmv_cost_of_within(tmv_pick_copy(op->isa, &shape), &shape, working_set);
}

/* How many of the outermost dims have their replicas copied from the
 * output rather than broadcast again from the input: the count whose plan
 * (the broadcast of the rest, then each of those dims' replica copy) the
 * cost model prices lowest, and 0 (one broadcast copy) unless that is below
 * TMV_COST_SWITCH_RATIO of the one copy's price, as for a kernel. A replica
 * of a few bytes is a call for a few bytes; one of many rows is a copy at
 * copy speed where the broadcast would expand each element again (TILE 3d
 * [n,4,16] u8 by {8,1,8} at 8 KiB: 0.32 x memcpy as one copy). */
static uint32_t replicated_dims(const tmv_op *op)
{
    const tmv_tensor *in = &op->inputs[0];
    const double single = copy_cost(op, tile_shape(op, 0, false));
    if (single <= 0 || !output_dense(op))
        return 0;
    uint32_t best = 0;
    double best_ns = single, replicas_ns = 0; /* the replica copies of dims [0, count) */
    for (uint32_t count = 1; count <= in->dim_count; count++) {
        const uint32_t d = count - 1;
        if (op->repeats[d] == 1)
            continue; /* the plan of count - 1 with a step less */
        const double replica = copy_cost(op, tile_shape(op, d, true));
        if (replica < 0)
            break; /* every plan from here on has this step */
        replicas_ns += replica;
        const double first = copy_cost(op, tile_shape(op, count, false));
        if (first >= 0 && first + replicas_ns < best_ns) {
            best = count;
            best_ns = first + replicas_ns;
        }
    }
    return best_ns < TMV_COST_SWITCH_RATIO * single ? best : 0;
}

tmv_status tmv_lower_tile(tmv_op *op)
{
    const tmv_tensor *in = &op->inputs[0];
    const uint32_t replicated = replicated_dims(op);
    tmv_status status = tmv_plan_reserve(op, 1 + replicated);
    if (status != TMV_OK)
        return status;
    status = tmv_plan_add_copy(op, tile_shape(op, replicated, false), 0, 0, 0, 0);
    /* innermost first: each copy reads a replica the ones before completed */
    for (uint32_t d = replicated; d-- > 0 && status == TMV_OK;)
        if (op->repeats[d] > 1)
            status = tmv_plan_add_output_copy(op, tile_shape(op, d, true), 0, 0,
                                              in->sizes[d] * op->outputs[0].strides[d] * op->outputs[0].elem_size);
    return status;
}
