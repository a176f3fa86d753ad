/* test_registry.c - the registry's invariants: unique names, known sets, a portable catch-all closing each primitive. */
#include <criterion/criterion.h>
#include <string.h>

#include "kernel_sets.h"
#include "kernels.h"

Test(registry, names_are_unique_and_name_their_set)
{
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        const tmv_kernel_set *set = tmv_kernel_set_of(k->set);
        cr_assert_not_null(set, "%s: set %d is not in the table", k->name, (int)k->set);
        cr_expect(set->built, "%s: its set %s is not built", k->name, set->name);
        const char *slash = strchr(k->name, '/');
        cr_assert_not_null(slash, "%s: no /<set> in the name", k->name);
        cr_expect_str_eq(slash + 1, set->name, "%s: name and set differ", k->name);
        for (unsigned j = i + 1; j < tmv_kernel_count; j++)
            cr_expect_str_neq(k->name, tmv_kernels[j].name, "two rows named %s", k->name);
    }
}

/* tmv_pick relies on it: whatever the shape, some portable row takes it. */
Test(registry, each_primitive_ends_with_a_portable_catch_all)
{
    const tmv_copy_shape copy = {0};
    const tmv_rows_shape rows = {0};
    const tmv_gather_shape gather = {0};
    const void *shapes[TMV_PRIMITIVE_COUNT] = {&copy, &rows, &rows, &gather};
    for (int p = 0; p < TMV_PRIMITIVE_COUNT; p++) {
        const tmv_kernel *last = NULL;
        for (unsigned i = 0; i < tmv_kernel_count; i++)
            if (tmv_kernels[i].primitive == (tmv_primitive)p)
                last = &tmv_kernels[i];
        cr_assert_not_null(last, "no kernel for %s", tmv_primitive_name((tmv_primitive)p));
        cr_expect_eq(last->set, TMV_ISA_SCALAR, "%s ends with %s", tmv_primitive_name((tmv_primitive)p), last->name);
        cr_expect(tmv_kernel_accepts(last, shapes[p]), "%s does not take every shape", last->name);
        cr_expect_eq(tmv_pick((tmv_primitive)p, TMV_ISA_SCALAR, shapes[p]), last,
                     "the scalar set picks another kernel than %s", last->name);
    }
}
