/* arch_elf.c: ELF64 little-endian validation in layers, section and symbol lookup. */
#include "arch_elf.h"

#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"

#define ELF_EHDR_SIZE 64u
#define ELF_SHDR_SIZE 64u
#define ELF_SYM_SIZE 24u
#define ELF_SHN_UNDEF 0u
#define ELF_SHN_LORESERVE 0xff00u
#define ELF_SHN_XINDEX 0xffffu

int arch_elf_is_elf(const void *data, size_t len)
{
    return data && len >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

/* Checks the ELF header.
 * - ELF magic, class ELFCLASS64, data ELFDATA2LSB, version 1 (ELF32 and big-endian: unsupported)
 * - the file holds the 64-byte header and e_shentsize is 64 when there are sections
 * - e_shnum/e_shstrndx use no extended numbering (SHN_XINDEX: unsupported)
 * - the section table fits in the file: shnum * 64 <= len - shoff
 * - e_shstrndx names an existing section
 * Returns ARCH_OK and fills e's header fields, or the error. */
static arch_status elf_check_header(arch_elf *e, uint64_t *shoff, size_t *shnum, size_t *shstrndx)
{
    const uint8_t *h = e->data;
    uint16_t shentsize, n, strndx;

    if (e->len < ELF_EHDR_SIZE || !arch_elf_is_elf(h, e->len))
        return ARCH_ERR_CORRUPT;
    if (h[4] != 2 || h[5] != 1) /* ELFCLASS64, ELFDATA2LSB */
        return ARCH_ERR_UNSUPPORTED;
    if (h[6] != 1)
        return ARCH_ERR_CORRUPT;
    e->osabi = h[7];
    e->abiversion = h[8];
    e->type = arch_le16(h + 16);
    e->machine = arch_le16(h + 18);
    e->flags = arch_le32(h + 48);
    *shoff = arch_le64(h + 40);
    shentsize = arch_le16(h + 58);
    n = arch_le16(h + 60);
    strndx = arch_le16(h + 62);
    if (n == 0) {
        /* either no sections or extended numbering (count in section 0): only the first is read */
        if (*shoff != 0)
            return ARCH_ERR_UNSUPPORTED;
        *shnum = 0;
        *shstrndx = 0;
        return ARCH_OK;
    }
    if (shentsize != ELF_SHDR_SIZE)
        return ARCH_ERR_CORRUPT;
    if (strndx == ELF_SHN_XINDEX)
        return ARCH_ERR_UNSUPPORTED;
    /* security: the table end is never computed; the count is compared with what remains */
    if (*shoff > e->len || (uint64_t)n > ((uint64_t)e->len - *shoff) / ELF_SHDR_SIZE)
        return ARCH_ERR_CORRUPT;
    if (strndx != ELF_SHN_UNDEF && strndx >= n)
        return ARCH_ERR_CORRUPT;
    *shnum = n;
    *shstrndx = strndx;
    return ARCH_OK;
}

/* Checks one section header and records its validated values (name left empty).
 * - non-NOBITS, non-empty sections lie inside the file (checked slice, wrap-safe)
 * Returns ARCH_OK or ARCH_ERR_CORRUPT. */
static arch_status elf_check_section(const arch_elf *e, const uint8_t *sh, arch_elf_section *s)
{
    uint64_t off;

    s->name = "";
    s->type = arch_le32(sh + 4);
    s->flags = arch_le64(sh + 8);
    s->addr = arch_le64(sh + 16);
    off = arch_le64(sh + 24);
    s->size = arch_le64(sh + 32);
    s->link = arch_le32(sh + 40);
    s->info = arch_le32(sh + 44);
    s->entsize = arch_le64(sh + 56);
    s->data = NULL;
    if (s->type == ARCH_SHT_NOBITS || s->size == 0)
        return ARCH_OK;
    /* security: section data must lie inside the file */
    if (!arch_slice(e->data, e->len, off, s->size, &s->data))
        return ARCH_ERR_CORRUPT;
    return ARCH_OK;
}

/* Checks the section-name string table and names every section.
 * - the table has data and ends in NUL within its size
 * - every sh_name indexes inside it
 * Returns ARCH_OK or ARCH_ERR_CORRUPT. */
static arch_status elf_check_names(arch_elf *e, uint64_t shoff, size_t shstrndx)
{
    const arch_elf_section *st;
    size_t i;

    if (shstrndx == ELF_SHN_UNDEF)
        return ARCH_OK;
    st = &e->sec[shstrndx];
    /* security: a string table without a final NUL would let a name run past its end */
    if (!st->data || st->data[st->size - 1] != 0)
        return ARCH_ERR_CORRUPT;
    for (i = 0; i < e->nsec; i++) {
        uint32_t name = arch_le32(e->data + shoff + i * ELF_SHDR_SIZE);
        if (name >= st->size)
            return ARCH_ERR_CORRUPT;
        e->sec[i].name = (const char *)st->data + name;
    }
    return ARCH_OK;
}

arch_status arch_elf_open(arch_elf *e, const void *data, size_t len)
{
    uint64_t shoff = 0;
    size_t shnum = 0, shstrndx = 0, i;
    arch_status s;

    if (!e || !data)
        return ARCH_ERR_INVALID;
    memset(e, 0, sizeof(*e));
    e->data = (const uint8_t *)data;
    e->len = len;
    s = elf_check_header(e, &shoff, &shnum, &shstrndx);
    if (s != ARCH_OK)
        return s;
    if (shnum == 0)
        return ARCH_OK;
    e->sec = calloc(shnum, sizeof(*e->sec));
    if (!e->sec)
        return ARCH_ERR_NOMEM;
    e->nsec = shnum;
    for (i = 0; i < shnum && s == ARCH_OK; i++)
        s = elf_check_section(e, e->data + shoff + i * ELF_SHDR_SIZE, &e->sec[i]);
    if (s == ARCH_OK)
        s = elf_check_names(e, shoff, shstrndx);
    if (s != ARCH_OK)
        arch_elf_close(e);
    return s;
}

void arch_elf_close(arch_elf *e)
{
    if (!e)
        return;
    free(e->sec);
    e->sec = NULL;
    e->nsec = 0;
}

const arch_elf_section *arch_elf_section_by_name(const arch_elf *e, const char *name)
{
    size_t i;
    for (i = 0; i < e->nsec; i++)
        if (strcmp(e->sec[i].name, name) == 0)
            return &e->sec[i];
    return NULL;
}

const arch_elf_section *arch_elf_section_by_type(const arch_elf *e, uint32_t type)
{
    size_t i;
    for (i = 0; i < e->nsec; i++)
        if (e->sec[i].type == type)
            return &e->sec[i];
    return NULL;
}

/* Checks a symbol table section and its string table.
 * - sh_entsize is 24 and the size a whole number of entries
 * - sh_link names an existing string table with data that ends in NUL within its size
 * Returns ARCH_OK and fills *out, or ARCH_ERR_CORRUPT. */
arch_status arch_elf_symtab_open(const arch_elf *e, const arch_elf_section *symtab, arch_elf_symtab *out)
{
    const arch_elf_section *str;

    memset(out, 0, sizeof(*out));
    if (!symtab->data)
        return ARCH_OK; /* an empty table: no symbols */
    if (symtab->entsize != ELF_SYM_SIZE || symtab->size % ELF_SYM_SIZE != 0)
        return ARCH_ERR_CORRUPT;
    if (symtab->link == 0 || symtab->link >= e->nsec)
        return ARCH_ERR_CORRUPT;
    str = &e->sec[symtab->link];
    /* security: symbol names are read as C strings, so the table must end in NUL */
    if (!str->data || str->data[str->size - 1] != 0)
        return ARCH_ERR_CORRUPT;
    out->syms = symtab->data;
    out->count = (size_t)(symtab->size / ELF_SYM_SIZE);
    out->strtab = (const char *)str->data;
    out->strsize = (size_t)str->size;
    return ARCH_OK;
}

/* Reads symbol index of a validated table.
 * - index < count; st_name indexes inside the string table
 * Returns ARCH_OK, ARCH_ERR_INVALID (index out of range) or ARCH_ERR_CORRUPT. */
arch_status arch_elf_symbol(const arch_elf_symtab *t, size_t index, arch_elf_sym *out)
{
    const uint8_t *p;
    uint32_t name;

    if (index >= t->count)
        return ARCH_ERR_INVALID;
    p = t->syms + index * ELF_SYM_SIZE;
    name = arch_le32(p);
    if (name >= t->strsize)
        return ARCH_ERR_CORRUPT;
    out->name = t->strtab + name;
    out->info = p[4];
    out->other = p[5];
    out->shndx = arch_le16(p + 6);
    out->value = arch_le64(p + 8);
    out->size = arch_le64(p + 16);
    return ARCH_OK;
}

size_t arch_elf_symbol_find(const arch_elf_symtab *t, const char *name, arch_elf_sym *out)
{
    size_t i;
    for (i = 1; i < t->count; i++) {
        arch_elf_sym s;
        if (arch_elf_symbol(t, i, &s) == ARCH_OK && strcmp(s.name, name) == 0) {
            *out = s;
            return i;
        }
    }
    return 0;
}

arch_status arch_elf_symbol_bytes(const arch_elf *e, const arch_elf_sym *s, uint64_t size,
                                  const uint8_t **out)
{
    const arch_elf_section *sec;
    uint64_t off;

    if (s->shndx == ELF_SHN_UNDEF || s->shndx >= ELF_SHN_LORESERVE || s->shndx >= e->nsec)
        return ARCH_ERR_NOT_FOUND;
    sec = &e->sec[s->shndx];
    if (!sec->data)
        return ARCH_ERR_NOT_FOUND;
    /* relocatable objects hold section-relative values, linked ones virtual addresses */
    if (e->type == ARCH_ET_REL) {
        off = s->value;
    } else {
        if (s->value < sec->addr)
            return ARCH_ERR_CORRUPT;
        off = s->value - sec->addr;
    }
    if (!arch_slice(sec->data, (size_t)sec->size, off, size, out))
        return ARCH_ERR_CORRUPT;
    return ARCH_OK;
}
