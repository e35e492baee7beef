/* arch_reader.h: the code-object readers behind arch_image_parse, one per format.
 * Private to hipsoftmax, do not expose.
 *
 * Each reader appends the kernels it finds (and a line per entry it does not read) to a builder;
 * arch_image_parse picks the reader from the file's first bytes. The per-format entry points are
 * declared here so that tests and fuzz targets can drive each one directly.
 *
 * The builder also carries the parse's work budget and first error (arch_work.h): the first reader
 * entered sets the budget from its input's size, nested readers draw on the same one, and every
 * reader records a failure, with the structure and offset, before returning its status.
 */
#ifndef HIPSOFTMAX_ARCH_READER_H_47E9B1
#define HIPSOFTMAX_ARCH_READER_H_47E9B1

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "arch_work.h"

/* A file with more kernels or more unread entries than this is refused (ARCH_ERR_LIMIT): the
 * library's own objects hold a few hundred kernels, and the cap bounds memory for hostile input. */
#define ARCH_MAX_KERNELS 65536
#define ARCH_MAX_SKIPPED 4096

/* Value limits a successful parse guarantees (larger values are ARCH_ERR_CORRUPT). They are the
 * hardware ceilings of every target either vendor has shipped, with margin. */
#define ARCH_MAX_VGPRS 512          /* CDNA unified VGPR file per lane (arch VGPRs + AGPRs) */
#define ARCH_MAX_AGPRS 256          /* AGPRs per lane on gfx908/gfx90a/gfx942 */
#define ARCH_MAX_SGPRS 128          /* addressable SGPRs on gfx9-gfx12, with VCC and trap SGPRs */
#define ARCH_MAX_NV_REGS 255        /* registers per thread on every NVIDIA target since sm_35 */
#define ARCH_MAX_BLOCK 1024         /* threads per block/workgroup on both vendors */
#define ARCH_MAX_STATIC_SMEM (1u << 20) /* 1 MiB: above any LDS or shared memory per CU/SM */

typedef struct arch_builder {
    arch_image img;    /* what arch_image_parse hands over on success */
    size_t cap_kernels;
    size_t cap_skipped;
    arch_work work;    /* the budget of this parse and its first error */
} arch_builder;

void arch_builder_init(arch_builder *b);
void arch_builder_discard(arch_builder *b);

/* Records a reader's failure (the first one only) and returns s. */
static inline arch_status arch_fail(arch_builder *b, arch_status s, const char *what, const void *at)
{
    return arch_work_fail(&b->work, s, what, at);
}

/* Builds img's lookup index (arch_image_find); arch_image_parse does it on success, tests and fuzz
 * targets that assemble images through a builder call it themselves. Returns ARCH_OK or
 * ARCH_ERR_NOMEM (the image then stays unindexed: lookups scan). */
arch_status arch_image_index_build(arch_image *img);

/* Appends a kernel with every field at its "unknown" default (agprs, spills: -1) and returns it.
 * ARCH_ERR_LIMIT past ARCH_MAX_KERNELS, recorded as "kernel list". */
arch_status arch_builder_kernel(arch_builder *b, arch_kernel **out);

/* Appends a printf-formatted line (truncated to 127 characters) to the skipped list.
 * ARCH_ERR_LIMIT past ARCH_MAX_SKIPPED, recorded as "list of entries not read". */
arch_status arch_builder_skip(arch_builder *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif /* defined(__GNUC__) */
    ;

/* Copies a byte range into a fixed char array, truncating, always NUL-terminated. */
void arch_copy_name(char *dst, size_t cap, const void *src, size_t n);

/* Detects the format from the bytes and runs the matching reader. */
arch_status arch_read_any(arch_builder *b, const uint8_t *data, size_t len);

/* AMDGPU HSA code object (ELF, EM_AMDGPU). target_hint: target used when the metadata names
 * none (the bundle entry's, after "amdgcn-amd-amdhsa--"), may be NULL. */
arch_status arch_read_amdgpu(arch_builder *b, const uint8_t *data, size_t len, const char *target_hint);

/* Reads the AMDGPU metadata MessagePack payload alone: kernels get target_hint as their target
 * (or the payload's amdhsa.target). No kernel descriptor cross-check. */
arch_status arch_read_amdgpu_metadata(arch_builder *b, const uint8_t *msgpack, size_t len,
                                      const char *target_hint);

/* One or more clang offload bundles back to back (zero padding between them), or CCOB ones. */
arch_status arch_read_bundles(arch_builder *b, const uint8_t *data, size_t len);

/* NVIDIA cubin (ELF, EM_CUDA). */
arch_status arch_read_cubin(arch_builder *b, const uint8_t *data, size_t len);

/* One or more NVIDIA fatbin containers back to back (zero padding between them). */
arch_status arch_read_fatbins(arch_builder *b, const uint8_t *data, size_t len);

/* Reads the SM version ("sm_90" -> 90) out of a cubin's ELF header fields. 0 when unknown. */
unsigned arch_cubin_sm(uint8_t osabi, uint32_t e_flags);

#endif /* HIPSOFTMAX_ARCH_READER_H_47E9B1 */
