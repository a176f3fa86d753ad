/* placeholder: being written */
#include "reference.h"
tmv_status tmv_reference_execute(const tmv_op *op, const void *const *inputs, void *const *outputs) { (void)op; (void)inputs; (void)outputs; return TMV_OK; }
