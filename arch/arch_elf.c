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
 * Returns ARCH_OK and fills e's header fields, or the error (recorded in e->work). */
static arch_status elf_check_header(arch_elf *e, uint64_t *shoff, size_t *shnum, size_t *shstrndx)
{
    const uint8_t *h = e->data;
    uint16_t shentsize, n, strndx;

    if (e->len < ELF_EHDR_SIZE || !arch_elf_is_elf(h, e->len))
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF header (truncated or no ELF magic)", h);
    if (h[4] != 2 || h[5] != 1) /* ELFCLASS64, ELFDATA2LSB */
        return arch_work_fail(e->work, ARCH_ERR_UNSUPPORTED, "ELF header (ELF32 or big-endian)", h + 4);
    if (h[6] != 1)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF header (e_ident version)", h + 6);
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
            return arch_work_fail(e->work, ARCH_ERR_UNSUPPORTED, "ELF header (extended section numbering)", h + 60);
        *shnum = 0;
        *shstrndx = 0;
        return ARCH_OK;
    }
    if (shentsize != ELF_SHDR_SIZE)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF header (e_shentsize is not 64)", h + 58);
    if (strndx == ELF_SHN_XINDEX)
        return arch_work_fail(e->work, ARCH_ERR_UNSUPPORTED, "ELF header (extended e_shstrndx)", h + 62);
    /* security: the table end is never computed; the count is compared with what remains */
    if (*shoff > e->len || (uint64_t)n > ((uint64_t)e->len - *shoff) / ELF_SHDR_SIZE)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF header (section table outside the file)", h + 40);
    if (strndx != ELF_SHN_UNDEF && strndx >= n)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF header (e_shstrndx past the sections)", h + 62);
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
    s->name_len = 0;
    s->hdr = sh;
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
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF section header (data outside the file)", sh + 24);
    return ARCH_OK;
}

/* Checks the section-name string table and names every section.
 * - the table has data and ends in NUL within its size
 * - every sh_name indexes inside it
 * - the names fit in the work budget (each is measured once: names may share bytes)
 * Returns ARCH_OK or the error. */
static arch_status elf_check_names(arch_elf *e, size_t shstrndx)
{
    const arch_elf_section *st;
    size_t i;

    if (shstrndx == ELF_SHN_UNDEF)
        return ARCH_OK;
    st = &e->sec[shstrndx];
    /* security: a string table without a final NUL would let a name run past its end */
    if (!st->data || st->data[st->size - 1] != 0)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF section-name string table (no final NUL)", st->hdr);
    for (i = 0; i < e->nsec; i++) {
        uint32_t name = arch_le32(e->sec[i].hdr);
        if (name >= st->size)
            return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF section header (sh_name outside the name table)",
                                  e->sec[i].hdr);
        e->sec[i].name = (const char *)st->data + name;
        /* bounded by the table's final NUL */
        e->sec[i].name_len = arch_strnlen(e->sec[i].name, (size_t)st->size - name);
        if (!arch_work_charge(e->work, e->sec[i].name_len + 1, e->sec[i].hdr))
            return ARCH_ERR_LIMIT;
    }
    return ARCH_OK;
}

/* Indexes the sections by name (arch_index.h). Returns ARCH_OK or ARCH_ERR_NOMEM. */
static arch_status elf_index_names(arch_elf *e)
{
    size_t i;

    e->names = malloc(e->nsec * sizeof(*e->names));
    if (!e->names)
        return arch_work_fail(e->work, ARCH_ERR_NOMEM, "ELF section-name index", NULL);
    for (i = 0; i < e->nsec; i++) {
        e->names[i].hash = arch_hash(ARCH_HASH_INIT, e->sec[i].name, e->sec[i].name_len);
        e->names[i].len = e->sec[i].name_len;
        e->names[i].pos = i;
    }
    arch_index_sort(e->names, e->nsec);
    return ARCH_OK;
}

arch_status arch_elf_open(arch_elf *e, arch_work *w, const void *data, size_t len)
{
    uint64_t shoff = 0;
    size_t shnum = 0, shstrndx = 0, i;
    arch_status s;

    if (!e || !data)
        return arch_work_fail(w, ARCH_ERR_INVALID, "ELF reader (NULL argument)", NULL);
    memset(e, 0, sizeof(*e));
    e->data = (const uint8_t *)data;
    e->len = len;
    e->work = w;
    s = elf_check_header(e, &shoff, &shnum, &shstrndx);
    if (s != ARCH_OK)
        return s;
    if (shnum == 0)
        return ARCH_OK;
    /* the section headers: shnum is at most 65535, but nested objects each have their own */
    if (!arch_work_charge(w, (uint64_t)shnum * ELF_SHDR_SIZE, e->data + shoff))
        return ARCH_ERR_LIMIT;
    e->sec = calloc(shnum, sizeof(*e->sec));
    if (!e->sec)
        return arch_work_fail(w, ARCH_ERR_NOMEM, "ELF section table", e->data + shoff);
    e->nsec = shnum;
    for (i = 0; i < shnum && s == ARCH_OK; i++)
        s = elf_check_section(e, e->data + shoff + i * ELF_SHDR_SIZE, &e->sec[i]);
    if (s == ARCH_OK)
        s = elf_check_names(e, shstrndx);
    if (s == ARCH_OK)
        s = elf_index_names(e);
    if (s != ARCH_OK)
        arch_elf_close(e);
    return s;
}

void arch_elf_close(arch_elf *e)
{
    if (!e)
        return;
    free(e->sec);
    free(e->names);
    e->sec = NULL;
    e->names = NULL;
    e->nsec = 0;
}

arch_status arch_elf_find_section(const arch_elf *e, const char *prefix, const char *name, size_t name_len,
                                  const arch_elf_section **out)
{
    size_t pl = strlen(prefix), i;
    uint64_t h = arch_hash(arch_hash(ARCH_HASH_INIT, prefix, pl), name, name_len);

    *out = NULL;
    if (arch_work_status(e->work) == ARCH_ERR_LIMIT)
        return ARCH_ERR_LIMIT;
    for (i = arch_index_first(e->names, e->nsec, h, pl + name_len);
         i < e->nsec && e->names[i].hash == h && e->names[i].len == pl + name_len; i++) {
        const arch_elf_section *s = &e->sec[e->names[i].pos];
        /* each confirmation is charged: crafted collisions lengthen the run, not the budget */
        if (!arch_work_charge(e->work, 1 + pl + name_len, s->hdr))
            return ARCH_ERR_LIMIT;
        if (memcmp(s->name, prefix, pl) == 0 && memcmp(s->name + pl, name, name_len) == 0) {
            *out = s;
            return ARCH_OK;
        }
    }
    return ARCH_OK;
}

const arch_elf_section *arch_elf_section_by_name(const arch_elf *e, const char *name)
{
    const arch_elf_section *s = NULL;
    (void)arch_elf_find_section(e, "", name, strlen(name), &s);
    return s;
}

const arch_elf_section *arch_elf_section_by_type(const arch_elf *e, uint32_t type)
{
    size_t i;
    for (i = 0; i < e->nsec; i++)
        if (e->sec[i].type == type)
            return &e->sec[i];
    return NULL;
}

/* Indexes a validated table's symbols by name (arch_index.h); symbols whose st_name lies outside
 * the string table are left out, as no lookup could match them. Each name is measured and hashed
 * once and charged to the work budget. Returns ARCH_OK, ARCH_ERR_NOMEM or ARCH_ERR_LIMIT. */
static arch_status symtab_index(arch_elf_symtab *t, const uint8_t *hdr)
{
    size_t i;

    if (t->count < 2)
        return ARCH_OK;
    if (!arch_work_charge(t->work, (uint64_t)t->count * ELF_SYM_SIZE, hdr))
        return ARCH_ERR_LIMIT;
    t->index = malloc((t->count - 1) * sizeof(*t->index));
    if (!t->index)
        return arch_work_fail(t->work, ARCH_ERR_NOMEM, "ELF symbol index", hdr);
    for (i = 1; i < t->count; i++) {
        const uint8_t *p = t->syms + i * ELF_SYM_SIZE;
        uint32_t name = arch_le32(p);
        size_t n;
        if (name >= t->strsize)
            continue;
        /* bounded by the string table's final NUL */
        n = arch_strnlen(t->strtab + name, t->strsize - name);
        if (!arch_work_charge(t->work, n + 1, p))
            return ARCH_ERR_LIMIT;
        t->index[t->n_index].hash = arch_hash(ARCH_HASH_INIT, t->strtab + name, n);
        t->index[t->n_index].len = n;
        t->index[t->n_index].pos = i;
        t->n_index++;
    }
    arch_index_sort(t->index, t->n_index);
    return ARCH_OK;
}

/* Checks a symbol table section and its string table, then indexes the symbols.
 * - sh_entsize is 24 and the size a whole number of entries
 * - sh_link names an existing string table with data that ends in NUL within its size
 * - the names fit in the work budget
 * Returns ARCH_OK and fills *out, or the error (recorded in e->work). */
arch_status arch_elf_symtab_open(const arch_elf *e, const arch_elf_section *symtab, arch_elf_symtab *out)
{
    const arch_elf_section *str;
    arch_status s;

    memset(out, 0, sizeof(*out));
    out->work = e->work;
    if (!symtab->data)
        return ARCH_OK; /* an empty table: no symbols */
    if (symtab->entsize != ELF_SYM_SIZE || symtab->size % ELF_SYM_SIZE != 0)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF symbol table section header (sh_entsize or sh_size)",
                              symtab->hdr);
    if (symtab->link == 0 || symtab->link >= e->nsec)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF symbol table section header (sh_link)", symtab->hdr);
    str = &e->sec[symtab->link];
    /* security: symbol names are read as C strings, so the table must end in NUL */
    if (!str->data || str->data[str->size - 1] != 0)
        return arch_work_fail(e->work, ARCH_ERR_CORRUPT, "ELF symbol string table (no final NUL)", str->hdr);
    out->syms = symtab->data;
    out->count = (size_t)(symtab->size / ELF_SYM_SIZE);
    out->strtab = (const char *)str->data;
    out->strsize = (size_t)str->size;
    s = symtab_index(out, symtab->hdr);
    if (s != ARCH_OK)
        arch_elf_symtab_close(out);
    return s;
}

void arch_elf_symtab_close(arch_elf_symtab *t)
{
    if (!t)
        return;
    free(t->index);
    t->index = NULL;
    t->n_index = 0;
}

/* Reads symbol index of a validated table.
 * - index < count; st_name indexes inside the string table
 * Returns ARCH_OK, ARCH_ERR_INVALID (index out of range) or ARCH_ERR_CORRUPT (not recorded: a
 * lookup may skip such a symbol). */
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
    out->entry = p;
    out->info = p[4];
    out->other = p[5];
    out->shndx = arch_le16(p + 6);
    out->value = arch_le64(p + 8);
    out->size = arch_le64(p + 16);
    return ARCH_OK;
}

arch_status arch_elf_symbol_find(const arch_elf_symtab *t, const char *name, size_t name_len, arch_elf_sym *out,
                                 size_t *index)
{
    uint64_t h = arch_hash(ARCH_HASH_INIT, name, name_len);
    size_t i;

    if (arch_work_status(t->work) == ARCH_ERR_LIMIT)
        return ARCH_ERR_LIMIT;
    for (i = arch_index_first(t->index, t->n_index, h, name_len);
         i < t->n_index && t->index[i].hash == h && t->index[i].len == name_len; i++) {
        size_t pos = t->index[i].pos;
        const uint8_t *p = t->syms + pos * ELF_SYM_SIZE;
        /* each confirmation is charged: crafted collisions lengthen the run, not the budget */
        if (!arch_work_charge(t->work, 1 + name_len, p))
            return ARCH_ERR_LIMIT;
        if (memcmp(t->strtab + arch_le32(p), name, name_len) == 0 && arch_elf_symbol(t, pos, out) == ARCH_OK) {
            if (index)
                *index = pos;
            return ARCH_OK;
        }
    }
    return ARCH_ERR_NOT_FOUND;
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
