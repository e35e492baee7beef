/* arch_work.c: the per-parse work budget and first-error record (arch_work.h). */
#include "arch_work.h"

#include <string.h>

void arch_work_init(arch_work *w)
{
    memset(w, 0, sizeof(*w));
    w->err.status = ARCH_OK;
    w->err.what = "";
    w->err.offset = -1;
    w->err.size = -1;
}

void arch_work_begin(arch_work *w, const void *data, size_t len)
{
    uint64_t budget;

    if (!w || w->base)
        return;
    w->base = (const uint8_t *)data;
    w->len = len;
    /* computed in 64 bits and saturated: a huge len cannot wrap the budget to a small one */
    budget = (uint64_t)len > (UINT64_MAX - ARCH_WORK_FLOOR) / ARCH_WORK_PER_BYTE
                 ? UINT64_MAX
                 : (uint64_t)len * ARCH_WORK_PER_BYTE + ARCH_WORK_FLOOR;
    w->left = budget;
}

arch_status arch_work_fail(arch_work *w, arch_status s, const char *what, const void *at)
{
    if (!w || s == ARCH_OK || w->err.status != ARCH_OK)
        return s;
    w->err.status = s;
    w->err.what = what ? what : "";
    w->err.offset = -1;
    /* compared as integers: at is always derived from base, but a NULL or foreign pointer must
     * not produce an offset */
    if (at && w->base) {
        uintptr_t a = (uintptr_t)at, b = (uintptr_t)w->base;
        if (a >= b && a - b <= w->len)
            w->err.offset = (int64_t)(a - b);
    }
    return s;
}

int arch_work_charge(arch_work *w, uint64_t units, const void *at)
{
    if (!w || !w->base)
        return 1;
    if (w->err.status == ARCH_ERR_LIMIT && w->left == 0)
        return 0;
    if (units > w->left) {
        w->left = 0;
        arch_work_fail(w, ARCH_ERR_LIMIT, "work budget (4 units per input byte) spent", at);
        return 0;
    }
    w->left -= units;
    return 1;
}
