/* placeholder: being written */
#include "op.h"
#include "error.h"
tmv_status tmv_validate(const tmv_op_desc *desc, tmv_op **out) { (void)desc; *out = 0; return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "not yet"); }
