/* arch_elf.h: the ELF64 little-endian layer shared by every code-object reader.
 * Private to hipsoftmax, do not expose.
 *
 * arch_elf_open validates the file once, in layers (header, section table, section-name string
 * table), and keeps only validated values: every section's data pointer lies inside the file and
 * every name is a NUL-terminated string inside the string table. Later code never re-reads raw
 * header fields.
 */
#ifndef HIPSOFTMAX_ARCH_ELF_H_9B27C4
#define HIPSOFTMAX_ARCH_ELF_H_9B27C4

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

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
} arch_elf;

typedef struct arch_elf_symtab {
    const uint8_t *syms;   /* count entries of 24 bytes, inside the file */
    size_t count;
    const char *strtab;    /* ends in NUL within strsize */
    size_t strsize;
} arch_elf_symtab;

typedef struct arch_elf_sym {
    const char *name;      /* NUL-terminated inside the string table */
    uint8_t info;
    uint8_t other;
    uint16_t shndx;
    uint64_t value;
    uint64_t size;
} arch_elf_sym;

/* 1 when the bytes start with the ELF magic (any class), 0 otherwise. */
int arch_elf_is_elf(const void *data, size_t len);

arch_status arch_elf_open(arch_elf *e, const void *data, size_t len);
void arch_elf_close(arch_elf *e);

/* The first section named exactly name, or NULL. */
const arch_elf_section *arch_elf_section_by_name(const arch_elf *e, const char *name);

/* The first section of the given type, or NULL. */
const arch_elf_section *arch_elf_section_by_type(const arch_elf *e, uint32_t type);

arch_status arch_elf_symtab_open(const arch_elf *e, const arch_elf_section *symtab, arch_elf_symtab *out);
arch_status arch_elf_symbol(const arch_elf_symtab *t, size_t index, arch_elf_sym *out);

/* Index of the first symbol named name (index 0, the null symbol, is never returned), or 0. */
size_t arch_elf_symbol_find(const arch_elf_symtab *t, const char *name, arch_elf_sym *out);

/* Maps a symbol to the bytes it names: size bytes at the symbol's value inside its section.
 * Returns ARCH_ERR_NOT_FOUND when the symbol has no section data, ARCH_ERR_CORRUPT when the
 * range is outside that section. */
arch_status arch_elf_symbol_bytes(const arch_elf *e, const arch_elf_sym *s, uint64_t size,
                                  const uint8_t **out);

#endif /* HIPSOFTMAX_ARCH_ELF_H_9B27C4 */
