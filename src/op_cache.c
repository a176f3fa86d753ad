/* op_cache.c - the operators tmv_execute keeps, found by their descriptions' contents.
 *
 * A description becomes a key of 32-bit words (every member, the arrays'
 * contents, the kernel set the operator is planned for), looked up among
 * TMV_OP_CACHE_SLOTS slots under one mutex. A slot in use counts its users;
 * only an idle slot is given to a new operator, so an operator lives until
 * its last user releases it. Failed creates are not kept: a bad
 * description gets tmv_op_create's error every time. */
#include "op_cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"

/* Words of the longest key kept (2 KiB): a JOIN or SPLIT of up to about
 * 50 packed 4-D pieces; longer descriptions are planned every time. */
#define KEY_WORDS 512
/* More pieces than this are not even looked at (their key cannot fit). */
#define KEY_PIECES_MAX 64

typedef struct op_key {
    uint32_t n;
    bool     ok;   /* false: the description cannot be kept (too long, or to be refused by create) */
    uint32_t w[KEY_WORDS];
} op_key;

struct tmv_op_cache_hold {
    tmv_op          *op;    /* NULL: an empty slot */
    uint64_t         hash;
    uint64_t         used;  /* the clock at the last acquire */
    _Atomic uint32_t users;
    uint32_t         key_words;
    uint32_t        *key;
};

static struct tmv_op_cache_hold slots[TMV_OP_CACHE_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t clock_ticks;

static void put(op_key *k, uint32_t v)
{
    if (k->n < KEY_WORDS)
        k->w[k->n++] = v;
    else
        k->ok = false;
}

/* A pointer member: whether it is NULL, then (if not) its n entries. */
static void put_array(op_key *k, const uint32_t *a, uint32_t n)
{
    put(k, a != NULL);
    for (uint32_t i = 0; a != NULL && i < n && k->ok; i++)
        put(k, a[i]);
}

static void put_tensor(op_key *k, const tmv_tensor_desc *t)
{
    put(k, t != NULL);
    if (t == NULL)
        return;
    if (t->dim_count > TMV_MAX_DIMS) {
        k->ok = false;
        return;
    }
    put(k, (uint32_t)t->dtype);
    put(k, t->dim_count);
    put_array(k, t->sizes, t->dim_count);
    put_array(k, t->strides, t->dim_count);
}

static void put_pieces(op_key *k, const tmv_tensor_desc *pieces, uint32_t count)
{
    put(k, count);
    put(k, pieces != NULL);
    if (count > KEY_PIECES_MAX)
        k->ok = false;
    for (uint32_t i = 0; pieces != NULL && i < count && k->ok; i++)
        put_tensor(k, &pieces[i]);
}

/* SPACE_TO_DEPTH and DEPTH_TO_SPACE: the same members. */
static void put_depth_space(op_key *k, const tmv_tensor_desc *in, const tmv_tensor_desc *out, uint32_t block,
                            tmv_depth_space_order order)
{
    put_tensor(k, in);
    put_tensor(k, out);
    put(k, block);
    put(k, (uint32_t)order);
}

static void build_key(const tmv_op_desc *desc, tmv_isa isa, op_key *k)
{
    k->n = 0;
    k->ok = desc != NULL && desc->desc != NULL;
    if (!k->ok)
        return;
    put(k, (uint32_t)desc->type);
    put(k, desc->flags);
    put(k, (uint32_t)isa);
    switch (desc->type) {
    case TMV_OP_JOIN: {
        const tmv_join_desc *d = desc->desc;
        put_pieces(k, d->inputs, d->input_count);
        put_tensor(k, d->output);
        put(k, d->axis);
        break;
    }
    case TMV_OP_SPLIT: {
        const tmv_split_desc *d = desc->desc;
        put_tensor(k, d->input);
        put_pieces(k, d->outputs, d->output_count);
        put(k, d->axis);
        break;
    }
    case TMV_OP_TILE: {
        const tmv_tile_desc *d = desc->desc;
        put_tensor(k, d->input);
        put_tensor(k, d->output);
        put(k, d->repeats_count);
        if (d->repeats_count > TMV_MAX_DIMS)
            k->ok = false;
        else
            put_array(k, d->repeats, d->repeats_count);
        break;
    }
    case TMV_OP_SPACE_TO_DEPTH: {
        const tmv_space_to_depth_desc *d = desc->desc;
        put_depth_space(k, d->input, d->output, d->block_size, d->order);
        break;
    }
    case TMV_OP_DEPTH_TO_SPACE: {
        const tmv_depth_to_space_desc *d = desc->desc;
        put_depth_space(k, d->input, d->output, d->block_size, d->order);
        break;
    }
    case TMV_OP_GATHER_ND: {
        const tmv_gather_nd_desc *d = desc->desc;
        put_tensor(k, d->input);
        put_tensor(k, d->indices);
        put_tensor(k, d->output);
        put(k, d->input_dim_count);
        put(k, d->indices_dim_count);
        put(k, d->batch_dim_count);
        break;
    }
    default: k->ok = false; /* create names the bad type */
    }
}

static uint64_t key_hash(const op_key *k)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a over the words */
    for (uint32_t i = 0; i < k->n; i++)
        h = (h ^ k->w[i]) * 0x100000001b3u;
    return h;
}

/* The slot holding key k, or NULL. Under slots_lock. */
static struct tmv_op_cache_hold *find(const op_key *k, uint64_t hash)
{
    for (unsigned i = 0; i < TMV_OP_CACHE_SLOTS; i++) {
        struct tmv_op_cache_hold *s = &slots[i];
        if (s->op != NULL && s->hash == hash && s->key_words == k->n &&
            memcmp(s->key, k->w, k->n * sizeof k->w[0]) == 0)
            return s;
    }
    return NULL;
}

/* An empty slot, else the idle one used longest ago, else NULL. Under slots_lock. */
static struct tmv_op_cache_hold *victim(void)
{
    struct tmv_op_cache_hold *best = NULL;
    for (unsigned i = 0; i < TMV_OP_CACHE_SLOTS; i++) {
        struct tmv_op_cache_hold *s = &slots[i];
        if (s->op == NULL)
            return s;
        if (atomic_load_explicit(&s->users, memory_order_acquire) == 0 && (best == NULL || s->used < best->used))
            best = s;
    }
    return best;
}

tmv_status tmv_op_cache_acquire(const tmv_op_desc *desc, tmv_op **op, tmv_op_cache_hold **hold)
{
    op_key k; /* 2 KiB of stack */
    const tmv_isa isa = tmv_get_isa(); /* read once: the key's set is the set the operator is planned for */
    build_key(desc, isa, &k);
    *hold = NULL;
    const uint64_t hash = k.ok ? key_hash(&k) : 0;
    if (k.ok) {
        pthread_mutex_lock(&slots_lock);
        struct tmv_op_cache_hold *s = find(&k, hash);
        if (s != NULL) {
            atomic_fetch_add_explicit(&s->users, 1, memory_order_relaxed);
            s->used = ++clock_ticks;
            *op = s->op;
            *hold = s;
        }
        pthread_mutex_unlock(&slots_lock);
        if (*hold != NULL)
            return TMV_OK;
    }
    tmv_status status = tmv_op_create_for(desc, isa, op);
    if (status != TMV_OK || !k.ok)
        return status;
    uint32_t *key = malloc(k.n * sizeof k.w[0]);
    if (key == NULL)
        return TMV_OK; /* not kept: the caller destroys it */
    memcpy(key, k.w, k.n * sizeof k.w[0]);
    pthread_mutex_lock(&slots_lock);
    struct tmv_op_cache_hold *s = victim();
    tmv_op *old_op = NULL;
    uint32_t *old_key = key; /* freed below if no slot takes it */
    if (s != NULL) {
        old_op = s->op;
        old_key = s->key;
        s->op = *op;
        s->hash = hash;
        s->used = ++clock_ticks;
        s->key_words = k.n;
        s->key = key;
        atomic_store_explicit(&s->users, 1, memory_order_relaxed);
        *hold = s;
    }
    pthread_mutex_unlock(&slots_lock);
    tmv_op_destroy(old_op);
    free(old_key);
    return TMV_OK;
}

void tmv_op_cache_release(tmv_op_cache_hold *hold)
{
    atomic_fetch_sub_explicit(&hold->users, 1, memory_order_release);
}
