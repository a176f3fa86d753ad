/* portable.h - the plain-C kernels: what runs where no SIMD kernel applies, and TENSORMOVE_ISA=scalar. */
#ifndef TMV_PORTABLE_H
#define TMV_PORTABLE_H

#include "kernels.h"

void tmv_copy_w1_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_copy_w2_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_copy_w4_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_copy_w8_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_copy_w16_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_copy_any_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_w1(const tmv_copy_shape *s);
bool tmv_copy_accepts_w2(const tmv_copy_shape *s);
bool tmv_copy_accepts_w4(const tmv_copy_shape *s);
bool tmv_copy_accepts_w8(const tmv_copy_shape *s);
bool tmv_copy_accepts_w16(const tmv_copy_shape *s);
void tmv_copy_fill_doubling_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_fill_doubling(const tmv_copy_shape *s);

void tmv_join_rows_portable(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
void tmv_split_rows_portable(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);

/* TMV_OK if every index tuple is in range, else TMV_ERR_INDEX_OUT_OF_RANGE
 * naming the first bad one. Any gather kernel may use it as its check pass. */
tmv_status tmv_gather_check_portable(const tmv_gather_shape *s, const uint8_t *indices);
tmv_status tmv_gather_portable(const tmv_gather_shape *s, const uint8_t *input,
                               const uint8_t *indices, uint8_t *output);

#endif
