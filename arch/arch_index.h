/* arch_index.h: a sorted index of names for O(log n) lookups. Private to hipsoftmax, do not expose.
 *
 * Entries hold a name's 64-bit FNV-1a hash, its length and its position in the caller's table;
 * sorted by (hash, length, position), the candidates for a name form one run, in table order, that
 * the caller confirms byte by byte (so the first confirmed one is the first in the table). The
 * hash is not a defence: names crafted to collide only lengthen the run, and callers charge each
 * confirmation to the parse's work budget (arch_work.h).
 */
#ifndef HIPSOFTMAX_ARCH_INDEX_H_8E14A6
#define HIPSOFTMAX_ARCH_INDEX_H_8E14A6

#include <stddef.h>
#include <stdint.h>

#define ARCH_HASH_INIT 0xcbf29ce484222325ull /* FNV-1a 64-bit offset basis */

typedef struct arch_index_entry {
    uint64_t hash;
    uint64_t len;
    size_t pos;
} arch_index_entry;

/* Continues an FNV-1a hash over n bytes. */
static inline uint64_t arch_hash(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull; /* FNV-1a 64-bit prime */
    }
    return h;
}

void arch_index_sort(arch_index_entry *e, size_t n);

/* The first position whose (hash, len) is not below the key: the run of candidates starts there
 * and lasts while hash and len are equal to the key's. */
size_t arch_index_first(const arch_index_entry *e, size_t n, uint64_t hash, uint64_t len);

#endif /* HIPSOFTMAX_ARCH_INDEX_H_8E14A6 */
