/* arch_elf.h: the ELF64 little-endian layer shared by every code-object reader.
 * Private to hipsoftmax, do not expose.
 *
 * arch_elf_open validates the file once, in layers (header, section table, section-name string
 * table), and keeps only validated values: every section's data pointer lies inside the file and
 * every name is a NUL-terminated string inside the string table. Later code never re-reads raw
 * header fields.
 *
 * Section names and symbol names are indexed once (arch_index.h), so a lookup costs O(log n)
 * whatever the number of sections or symbols; building and using the indexes is charged to the
 * parse's work budget, and every failure is recorded there with its structure and offset
 * (arch_work.h).
 */
#ifndef HIPSOFTMAX_ARCH_ELF_H_9B27C4
#define HIPSOFTMAX_ARCH_ELF_H_9B27C4

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "arch_index.h"
#include "arch_work.h"

#define ARCH_EM_AMDGPU 224 /* e_machine of AMDGPU code objects */
#define ARCH_EM_CUDA 190   /* e_machine of NVIDIA cubins */

#define ARCH_SHT_SYMTAB 2
#define ARCH_SHT_STRTAB 3
#define ARCH_SHT_NOTE 7
#define ARCH_SHT_NOBITS 8
#define ARCH_SHT_DYNSYM 11

#define ARCH_ET_REL 1

typedef struct arch_elf_section {
    const char *name;      /* NUL-terminated inside the section-name table ("" when unnamed) */
    size_t name_len;       /* strlen(name) */
    const uint8_t *hdr;    /* its 64-byte header inside the file (for error offsets) */
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t size;
    uint32_t link;
    uint32_t info;
    uint64_t entsize;
    const uint8_t *data;   /* size bytes inside the file; NULL for SHT_NOBITS and empty sections */
} arch_elf_section;

typedef struct arch_elf {
    const uint8_t *data;
    size_t len;
    uint16_t type;         /* e_type */
    uint16_t machine;      /* e_machine */
    uint32_t flags;        /* e_flags */
    uint8_t osabi;         /* e_ident[EI_OSABI] */
    uint8_t abiversion;    /* e_ident[EI_ABIVERSION] */
    arch_elf_section *sec; /* nsec validated sections, heap */
    size_t nsec;
    arch_index_entry *names; /* nsec entries: the sections by name, heap */
    arch_work *work;       /* the parse's budget and first error; may be NULL (unlimited) */
} arch_elf;

typedef struct arch_elf_symtab {
    const uint8_t *syms;   /* count entries of 24 bytes, inside the file */
    size_t count;
    const char *strtab;    /* ends in NUL within strsize */
    size_t strsize;
    arch_index_entry *index; /* n_index entries: the symbols with a valid name, by name, heap */
    size_t n_index;
    arch_work *work;
} arch_elf_symtab;

typedef struct arch_elf_sym {
    const char *name;      /* NUL-terminated inside the string table */
    const uint8_t *entry;  /* its 24-byte entry inside the file (for error offsets) */
    uint8_t info;
    uint8_t other;
    uint16_t shndx;
    uint64_t value;
    uint64_t size;
} arch_elf_sym;

/* 1 when the bytes start with the ELF magic (any class), 0 otherwise. */
int arch_elf_is_elf(const void *data, size_t len);

/* Validates the file (checks listed in arch_elf.c) and indexes the section names. w may be NULL.
 * Returns ARCH_OK, or the error (also recorded in w). */
arch_status arch_elf_open(arch_elf *e, arch_work *w, const void *data, size_t len);
void arch_elf_close(arch_elf *e);

/* Finds the first section (lowest index) named prefix followed by the name_len bytes of name
 * (prefix may be ""). Returns ARCH_OK with *out set, NULL when there is none, or ARCH_ERR_LIMIT
 * when the work budget ran out. */
arch_status arch_elf_find_section(const arch_elf *e, const char *prefix, const char *name, size_t name_len,
                                  const arch_elf_section **out);

/* The first section named exactly name, or NULL (also NULL once the work budget is spent: callers
 * that go on check arch_work_status). */
const arch_elf_section *arch_elf_section_by_name(const arch_elf *e, const char *name);

/* The first section of the given type, or NULL. */
const arch_elf_section *arch_elf_section_by_type(const arch_elf *e, uint32_t type);

/* Validates a symbol table and indexes its symbols by name. Free with arch_elf_symtab_close. */
arch_status arch_elf_symtab_open(const arch_elf *e, const arch_elf_section *symtab, arch_elf_symtab *out);
void arch_elf_symtab_close(arch_elf_symtab *t); /* accepts a zeroed or closed table */
arch_status arch_elf_symbol(const arch_elf_symtab *t, size_t index, arch_elf_sym *out);

/* Finds the first symbol (lowest index; never 0, the null symbol) named by the name_len bytes of
 * name. Returns ARCH_OK with *out and *index set, ARCH_ERR_NOT_FOUND, or ARCH_ERR_LIMIT when the
 * work budget ran out. */
arch_status arch_elf_symbol_find(const arch_elf_symtab *t, const char *name, size_t name_len, arch_elf_sym *out,
                                 size_t *index);

/* Maps a symbol to the bytes it names: size bytes at the symbol's value inside its section.
 * Returns ARCH_ERR_NOT_FOUND when the symbol has no section data, ARCH_ERR_CORRUPT when the
 * range is outside that section. */
arch_status arch_elf_symbol_bytes(const arch_elf *e, const arch_elf_sym *s, uint64_t size,
                                  const uint8_t **out);

#endif /* HIPSOFTMAX_ARCH_ELF_H_9B27C4 */
