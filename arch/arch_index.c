/* arch_index.c: sorting and searching the name index (arch_index.h). */
#include "arch_index.h"

#include <stdlib.h>

static int entry_cmp(const void *pa, const void *pb)
{
    const arch_index_entry *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

void arch_index_sort(arch_index_entry *e, size_t n)
{
    if (n > 1)
        qsort(e, n, sizeof(*e), entry_cmp);
}

size_t arch_index_first(const arch_index_entry *e, size_t n, uint64_t hash, uint64_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].hash < hash || (e[mid].hash == hash && e[mid].len < len))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
