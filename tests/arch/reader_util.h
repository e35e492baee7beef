/* reader_util.h: helpers shared by the reader tests: file loading, checks that stay on under
 * NDEBUG, and parsers for the oracle texts (llvm-readelf --notes, ptxas -v). */
#ifndef HIPSOFTMAX_TESTS_READER_UTIL_H_3E51A7
#define HIPSOFTMAX_TESTS_READER_UTIL_H_3E51A7

/* strtok_r */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif /* _POSIX_C_SOURCE */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"

static int ru_failures;

#define RU_CHECK(cond, ...)                                                        \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            ru_failures++;                                                         \
        }                                                                          \
    } while (0)

/* Loads a whole file into a buffer of exactly its size (so sanitizers see any overread). */
static inline uint8_t *ru_load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    uint8_t *d;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    d = malloc(n ? (size_t)n : 1);
    if (!d || fread(d, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return d;
}

static inline arch_image ru_parse_file(const char *path)
{
    size_t len;
    uint8_t *d = ru_load(path, &len);
    arch_image img;
    arch_status s = arch_image_parse(d, len, &img);
    RU_CHECK(s == ARCH_OK, "%s: %s", path, arch_status_string(s));
    free(d);
    return img;
}

/* One kernel as an oracle text describes it; -1 where the text says nothing. */
typedef struct ru_oracle {
    char name[256];
    char target[64];
    long vgprs, agprs, sgprs, lds, scratch, wave, max_block, vspill, sspill; /* AMD */
    long regs, smem, frame;                                                   /* NVIDIA */
} ru_oracle;

/* The library's largest kernel object holds a few hundred kernels for each of its targets. */
#define RU_MAX_ORACLE 4096

static inline void ru_oracle_reset(ru_oracle *o)
{
    memset(o, 0, sizeof(*o));
    o->vgprs = o->agprs = o->sgprs = o->lds = o->scratch = o->wave = o->max_block = -1;
    o->vspill = o->sspill = o->regs = o->smem = o->frame = -1;
}

/* Parses llvm-readelf --notes output: kernels are "  - " items of amdhsa.kernels whose keys sit
 * at four spaces of indentation (deeper lines belong to .args). Returns the kernel count. */
static inline size_t ru_parse_notes(const char *path, ru_oracle *out, size_t cap)
{
    size_t len, n = 0, i;
    char *text = (char *)ru_load(path, &len), *line, *save = NULL, target[64] = "";
    text = realloc(text, len + 1);
    text[len] = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *key = NULL;
        char *v;
        if (strncmp(line, "amdhsa.target:", 14) == 0) {
            char *t = line + 14;
            while (*t == ' ' || *t == '\'')
                t++;
            t[strcspn(t, "'")] = 0;
            if (strncmp(t, "amdgcn-amd-amdhsa--", 19) == 0)
                t += 19;
            snprintf(target, sizeof(target), "%s", t);
            continue;
        }
        if (strncmp(line, "  - .", 5) == 0) {
            if (n == cap)
                break;
            ru_oracle_reset(&out[n++]);
            key = line + 4;
        } else if (strncmp(line, "    .", 5) == 0 && n > 0) {
            key = line + 4;
        }
        if (!key || !(v = strchr(key, ':')))
            continue;
        *v++ = 0;
        while (*v == ' ' || *v == '\'')
            v++;
        v[strcspn(v, "'")] = 0;
        {
            ru_oracle *o = &out[n - 1];
            long x = strtol(v, NULL, 10);
            if (!strcmp(key, ".name")) snprintf(o->name, sizeof(o->name), "%s", v);
            else if (!strcmp(key, ".vgpr_count")) o->vgprs = x;
            else if (!strcmp(key, ".agpr_count")) o->agprs = x;
            else if (!strcmp(key, ".sgpr_count")) o->sgprs = x;
            else if (!strcmp(key, ".group_segment_fixed_size")) o->lds = x;
            else if (!strcmp(key, ".private_segment_fixed_size")) o->scratch = x;
            else if (!strcmp(key, ".wavefront_size")) o->wave = x;
            else if (!strcmp(key, ".max_flat_workgroup_size")) o->max_block = x;
            else if (!strcmp(key, ".vgpr_spill_count")) o->vspill = x;
            else if (!strcmp(key, ".sgpr_spill_count")) o->sspill = x;
        }
    }
    for (i = 0; i < n; i++)
        snprintf(out[i].target, sizeof(out[i].target), "%s", target);
    free(text);
    return n;
}

/* Parses ptxas -v output (nvcc -Xptxas -v): "Compiling entry function 'k' for 'sm_90'" opens a
 * kernel; "N bytes stack frame" of its own properties (not of a function it calls, listed after it)
 * and "Used N registers, ..., [S bytes cumulative stack size,] M bytes smem" fill it. A kernel that
 * calls functions needs the cumulative stack, its frame and its callees': what the cubin records. */
static inline size_t ru_parse_ptxas(const char *path, ru_oracle *out, size_t cap)
{
    size_t len, n = 0;
    char *text = (char *)ru_load(path, &len), *line, *save = NULL;
    int own = 0; /* the properties being read are the open kernel's own */
    text = realloc(text, len + 1);
    text[len] = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p;
        if ((p = strstr(line, "Function properties for ")) != NULL) {
            own = n > 0 && strcmp(p + 24, out[n - 1].name) == 0;
        } else if ((p = strstr(line, "Compiling entry function '")) != NULL) {
            char *name = p + 26, *q = strchr(name, '\''), *t;
            if (!q || n == cap)
                continue;
            *q = 0;
            ru_oracle_reset(&out[n]);
            snprintf(out[n].name, sizeof(out[n].name), "%s", name);
            t = strstr(q + 1, "'sm_");
            if (t) {
                t++;
                t[strcspn(t, "'")] = 0;
                snprintf(out[n].target, sizeof(out[n].target), "%s", t);
            }
            out[n].smem = 0;
            out[n].frame = 0;
            n++;
        } else if (n > 0 && own && (p = strstr(line, " bytes stack frame")) != NULL) {
            out[n - 1].frame = strtol(line, NULL, 10);
        } else if (n > 0 && (p = strstr(line, "Used ")) != NULL) {
            char *s = strstr(line, " bytes smem"), *c = strstr(line, " bytes cumulative stack size");
            out[n - 1].regs = strtol(p + 5, NULL, 10);
            if (c) {
                while (c > line && c[-1] >= '0' && c[-1] <= '9')
                    c--;
                out[n - 1].frame = strtol(c, NULL, 10);
            }
            if (s) {
                while (s > line && s[-1] >= '0' && s[-1] <= '9')
                    s--;
                out[n - 1].smem = strtol(s, NULL, 10);
            }
        }
    }
    free(text);
    return n;
}

/* Compares an image's kernel against its oracle; returns 1 when found. */
static inline int ru_check_amd(const arch_image *img, const ru_oracle *o, const char *what)
{
    const arch_kernel *k = arch_image_find(img, o->target, o->name);
    RU_CHECK(k != NULL, "%s: %s/%s not found", what, o->target, o->name);
    if (!k)
        return 0;
    RU_CHECK(strcmp(k->target, o->target) == 0, "%s: target %s vs %s", what, k->target, o->target);
    RU_CHECK(k->vendor == ARCH_VENDOR_AMD, "%s: %s vendor", what, o->name);
    RU_CHECK(k->vgprs == o->vgprs && k->regs == o->vgprs, "%s: %s vgprs %d vs %ld", what, o->name, k->vgprs, o->vgprs);
    RU_CHECK(k->agprs == o->agprs, "%s: %s agprs %d vs %ld", what, o->name, k->agprs, o->agprs);
    RU_CHECK(k->sgprs == o->sgprs, "%s: %s sgprs %d vs %ld", what, o->name, k->sgprs, o->sgprs);
    RU_CHECK((long)k->static_smem == o->lds, "%s: %s lds %u vs %ld", what, o->name, k->static_smem, o->lds);
    RU_CHECK((long)k->scratch == o->scratch, "%s: %s scratch %u vs %ld", what, o->name, k->scratch, o->scratch);
    RU_CHECK(k->wave_size == o->wave, "%s: %s wave %d vs %ld", what, o->name, k->wave_size, o->wave);
    RU_CHECK(k->max_block == (o->max_block < 0 ? 0 : o->max_block), "%s: %s max block %d vs %ld", what, o->name,
             k->max_block, o->max_block);
    RU_CHECK(k->vgpr_spills == o->vspill && k->sgpr_spills == o->sspill, "%s: %s spills %d/%d vs %ld/%ld", what,
             o->name, k->vgpr_spills, k->sgpr_spills, o->vspill, o->sspill);
    RU_CHECK(!k->descriptor_mismatch, "%s: %s descriptor disagrees with the note", what, o->name);
    return 1;
}

static inline int ru_check_nv(const arch_image *img, const ru_oracle *o, const char *what)
{
    const arch_kernel *k = arch_image_find(img, o->target, o->name);
    RU_CHECK(k != NULL, "%s: %s/%s not found", what, o->target, o->name);
    if (!k)
        return 0;
    RU_CHECK(k->vendor == ARCH_VENDOR_NVIDIA && k->wave_size == 32, "%s: %s vendor/wave", what, o->name);
    RU_CHECK(k->regs == o->regs && k->vgprs == o->regs, "%s: %s regs %d vs %ld", what, o->name, k->regs, o->regs);
    RU_CHECK((long)k->static_smem == o->smem, "%s: %s smem %u vs %ld", what, o->name, k->static_smem, o->smem);
    RU_CHECK((long)k->scratch == o->frame, "%s: %s frame %u vs %ld", what, o->name, k->scratch, o->frame);
    RU_CHECK(!k->descriptor_mismatch, "%s: %s section header disagrees with EIATTR_REGCOUNT", what, o->name);
    return 1;
}

static inline int ru_finish(const char *test)
{
    if (ru_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", test, ru_failures);
        return 1;
    }
    printf("%s: all checks passed\n", test);
    return 0;
}

#endif /* HIPSOFTMAX_TESTS_READER_UTIL_H_3E51A7 */
