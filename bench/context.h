/* context.h - the report header and the list of kernel sets this CPU runs. */
#ifndef TMV_BENCH_CONTEXT_H
#define TMV_BENCH_CONTEXT_H

/* Fills isas with every value i in 0..63 that names a kernel set
 * (tmv_isa_name) this CPU accepts (tmv_set_isa), ascending; returns the count.
 * Leaves the current kernel set as it was. */
int bench_available_isas(int *isas, int max);
/* Adds tensormove's version and kernel sets, the CPU model and the meaning of the metrics. */
void bench_add_context(void);

#endif /* TMV_BENCH_CONTEXT_H */
