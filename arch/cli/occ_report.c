/* occ_report.c: computes both occupancy models for one kernel on its target and prints them. */
#include "occ_report.h"

#include <string.h>

/* [arch/README.md] the two regsPerBlock values CDNA runtimes report */
#define OCC_RPB_OLD 65536
#define OCC_RPB_NEW 131072

typedef struct occ_tut {
    arch_status status;
    arch_tutorial t;
} occ_tut;

typedef struct occ_row {
    arch_device dev;
    arch_status exact_status;
    arch_occupancy exact;
    int64_t exact_programs;
    int num_warps;
    occ_tut tut;      /* with the selected (or the older, 65536) regsPerBlock */
    int has_alt;      /* CDNA unified-file target and no --regs-per-block: newer ROCm's 131072 too */
    occ_tut tut_alt;
} occ_row;

static char occ_last_target[64];

void occ_report_begin(FILE *out)
{
    (void)out;
    occ_last_target[0] = '\0';
}

static int64_t occ_min64(int64_t a, int64_t b) { return a < b ? a : b; }

static occ_tut occ_tutorial(const arch_device *d, const arch_kernel *k, int num_warps, int64_t rows)
{
    occ_tut r;
    memset(&r, 0, sizeof r);
    /* n_regs: the cubin's register count, or on AMD .vgpr_count (what hipFuncGetAttribute reports) */
    const int n_regs = d->vendor == ARCH_VENDOR_AMD ? k->vgprs : k->regs;
    r.status = arch_occupancy_tutorial(d, n_regs, k->static_smem, num_warps, rows, &r.t);
    if (r.status != ARCH_OK && r.t.why_undefined == NULL)
        r.t.why_undefined = arch_status_string(r.status);
    return r;
}

/* Returns 0 when the kernel's target is not in the tables. */
static int occ_compute(const occ_settings *st, const arch_kernel *k, occ_row *r)
{
    memset(r, 0, sizeof *r);
    if (arch_target_lookup(k->target, st->regs_per_block, &r->dev) != ARCH_OK)
        return 0;
    if (r->dev.vendor == ARCH_VENDOR_AMD && st->waves_per_simd > 0)
        r->dev.max_waves_per_simd = st->waves_per_simd;
    r->exact_status = arch_occupancy_exact(&r->dev, k, st->block, 0, &st->amd, &r->exact);
    if (r->exact_status == ARCH_OK)
        r->exact_programs = occ_min64((int64_t)r->dev.num_cus * r->exact.blocks_per_cu, st->rows);
    /* the tutorial's num_warps is the block in warps; a partial warp still occupies a whole one */
    r->num_warps = (int)(((int64_t)st->block + r->dev.warp_size - 1) / r->dev.warp_size);
    r->tut = occ_tutorial(&r->dev, k, r->num_warps, st->rows);
    if (r->dev.vendor == ARCH_VENDOR_AMD && st->regs_per_block == 0 && r->dev.vgprs_per_simd_lane == 512) {
        arch_device alt;
        if (arch_target_lookup(k->target, OCC_RPB_NEW, &alt) == ARCH_OK) {
            alt.max_waves_per_simd = r->dev.max_waves_per_simd;
            r->has_alt = 1;
            r->tut_alt = occ_tutorial(&alt, k, r->num_warps, st->rows);
        }
    }
    return 1;
}

void occ_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            /* control characters must be escaped; bytes >= 0x80 that are not UTF-8 are escaped as
             * U+00XX so that the output stays valid JSON whatever a symbol name holds */
            if (*p < 0x20 || *p >= 0x80)
                fprintf(out, "\\u%04x", (unsigned)*p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void occ_json_key(FILE *out, const char *key) { fprintf(out, ",\"%s\":", key); }

static void occ_json_int_or_null(FILE *out, const char *key, int have, long long v)
{
    occ_json_key(out, key);
    if (have)
        fprintf(out, "%lld", v);
    else
        fputs("null", out);
}

/* A tutorial value, or where the formula is undefined the reason as a string. */
static void occ_json_tut(FILE *out, const char *key, const occ_tut *t, long long v)
{
    occ_json_key(out, key);
    if (t->status == ARCH_OK)
        fprintf(out, "%lld", v);
    else
        occ_json_string(out, t->t.why_undefined);
}

static void occ_json_head(FILE *out, const char *file, const char *target, const char *kernel)
{
    fputs("{\"file\":", out);
    if (file)
        occ_json_string(out, file);
    else
        fputs("null", out);
    occ_json_key(out, "target");
    occ_json_string(out, target);
    occ_json_key(out, "kernel");
    occ_json_string(out, kernel);
}

static void occ_print_json(FILE *out, const occ_settings *st, const char *file, const arch_kernel *k,
                           const occ_row *r)
{
    const int amd = r->dev.vendor == ARCH_VENDOR_AMD;
    occ_json_head(out, file, k->target, k->name);
    occ_json_key(out, "base_target");
    occ_json_string(out, r->dev.name);
    occ_json_key(out, "vendor");
    occ_json_string(out, amd ? "amd" : "nvidia");
    occ_json_int_or_null(out, "vgprs", amd, k->vgprs);
    occ_json_int_or_null(out, "agprs", amd && k->agprs >= 0, k->agprs);
    occ_json_int_or_null(out, "sgprs", amd, k->sgprs);
    occ_json_int_or_null(out, "regs", 1, amd ? k->vgprs : k->regs);
    occ_json_int_or_null(out, "lds_bytes", 1, k->static_smem);
    occ_json_int_or_null(out, "scratch_bytes", 1, k->scratch);
    occ_json_int_or_null(out, "wave_size", 1, k->wave_size > 0 ? k->wave_size : r->dev.warp_size);
    occ_json_int_or_null(out, "block", 1, st->block);
    occ_json_int_or_null(out, "rows", 1, st->rows);
    occ_json_int_or_null(out, "cus", 1, r->dev.num_cus);
    if (r->exact_status == ARCH_OK) {
        occ_json_int_or_null(out, "exact_blocks_per_cu", 1, r->exact.blocks_per_cu);
        occ_json_key(out, "exact_limiter");
        occ_json_string(out, arch_limiter_string(r->exact.limiter));
        if (amd)
            occ_json_int_or_null(out, "waves_per_simd", 1, r->exact.waves_per_simd);
        else
            occ_json_int_or_null(out, "warps_per_sm", 1, r->exact.warps_per_cu);
        occ_json_int_or_null(out, "exact_num_programs", 1, r->exact_programs);
    } else {
        occ_json_key(out, "exact_error");
        occ_json_string(out, arch_status_string(r->exact_status));
    }
    occ_json_int_or_null(out, "tutorial_num_warps", 1, r->num_warps);
    occ_json_tut(out, "tutorial_num_gprs", &r->tut, r->tut.t.num_gprs);
    occ_json_tut(out, "tutorial_occupancy", &r->tut, r->tut.t.occupancy);
    occ_json_tut(out, "num_programs", &r->tut, r->tut.t.num_programs);
    if (r->has_alt) {
        occ_json_tut(out, "tutorial_occupancy_regs_per_block_131072", &r->tut_alt, r->tut_alt.t.occupancy);
        occ_json_tut(out, "num_programs_regs_per_block_131072", &r->tut_alt, r->tut_alt.t.num_programs);
    }
    fputs("}\n", out);
}

/* "4", or "4|8" where newer ROCm's regsPerBlock changes the tutorial's value; "undefined" where the
 * formula is. */
static void occ_fmt_tut(char *buf, size_t n, const occ_row *r, int programs)
{
    if (r->tut.status != ARCH_OK) {
        snprintf(buf, n, "undefined");
        return;
    }
    long long v = programs ? (long long)r->tut.t.num_programs : r->tut.t.occupancy;
    if (r->has_alt && r->tut_alt.status == ARCH_OK) {
        long long a = programs ? (long long)r->tut_alt.t.num_programs : r->tut_alt.t.occupancy;
        snprintf(buf, n, "%lld|%lld", v, a);
    } else {
        snprintf(buf, n, "%lld", v);
    }
}

static void occ_print_header(FILE *out, const occ_settings *st, const arch_kernel *k, const occ_row *r)
{
    const arch_device *d = &r->dev;
    if (d->vendor == ARCH_VENDOR_AMD) {
        fprintf(out, "\n%s (%s: %d CUs, wave %d, %d waves/SIMD, LDS %zu KiB/CU; block %d, rows %lld", k->target,
                d->name, d->num_cus, d->warp_size, d->max_waves_per_simd, d->smem_per_cu / 1024, st->block,
                (long long)st->rows);
        if (r->has_alt)
            fprintf(out, "; tutorial shown as regsPerBlock 65536|131072");
        else
            fprintf(out, "; tutorial with regsPerBlock %d", d->regs_per_block);
        fprintf(out, ")\n  %-34s | %-33s | %-27s |\n", "kernel resources", "exact model (ROCm clr)",
                "tutorial formula");
        fprintf(out, "  %5s %5s %5s %7s %8s | %6s %-10s %6s %8s | %5s %-9s %-11s | %s\n", "VGPR", "AGPR", "SGPR",
                "LDS", "scratch", "blk/CU", "limiter", "w/SIMD", "programs", "warps", "occ", "programs", "kernel");
    } else {
        fprintf(out, "\n%s (%s: %d SMs, warp %d, shared %zu KiB/SM; block %d, rows %lld)\n", k->target, d->name,
                d->num_cus, d->warp_size, d->smem_per_cu / 1024, st->block, (long long)st->rows);
        fprintf(out, "  %-22s | %-33s | %-27s |\n", "kernel resources", "exact model (cuda_occupancy.h)",
                "tutorial formula");
        fprintf(out, "  %5s %7s %8s | %6s %-10s %6s %8s | %5s %-9s %-11s | %s\n", "regs", "shared", "scratch",
                "blk/SM", "limiter", "warps", "programs", "warps", "occ", "programs", "kernel");
    }
}

static void occ_print_text(FILE *out, const occ_settings *st, const arch_kernel *k, const occ_row *r)
{
    char occ[32], prog[48], agpr[16], exact[64];
    if (strcmp(occ_last_target, k->target) != 0) {
        occ_print_header(out, st, k, r);
        snprintf(occ_last_target, sizeof occ_last_target, "%s", k->target);
    }
    occ_fmt_tut(occ, sizeof occ, r, 0);
    occ_fmt_tut(prog, sizeof prog, r, 1);
    if (r->exact_status == ARCH_OK)
        snprintf(exact, sizeof exact, "%6d %-10s %6d %8lld", r->exact.blocks_per_cu,
                 arch_limiter_string(r->exact.limiter),
                 r->dev.vendor == ARCH_VENDOR_AMD ? r->exact.waves_per_simd : r->exact.warps_per_cu,
                 (long long)r->exact_programs);
    else
        snprintf(exact, sizeof exact, "%-33s", arch_status_string(r->exact_status));
    if (r->dev.vendor == ARCH_VENDOR_AMD) {
        if (k->agprs >= 0)
            snprintf(agpr, sizeof agpr, "%d", k->agprs);
        else
            snprintf(agpr, sizeof agpr, "-");
        fprintf(out, "  %5d %5s %5d %7u %8u | %s | %5d %-9s %-11s | %s\n", k->vgprs, agpr, k->sgprs,
                (unsigned)k->static_smem, (unsigned)k->scratch, exact, r->num_warps, occ, prog, k->name);
    } else {
        fprintf(out, "  %5d %7u %8u | %s | %5d %-9s %-11s | %s\n", k->regs, (unsigned)k->static_smem,
                (unsigned)k->scratch, exact, r->num_warps, occ, prog, k->name);
    }
    if (r->tut.status != ARCH_OK)
        fprintf(out, "    tutorial formula undefined: %s\n", r->tut.t.why_undefined);
}

void occ_report_kernel(FILE *out, const occ_settings *st, const char *file, const arch_kernel *k)
{
    occ_row r;
    if (!occ_compute(st, k, &r)) {
        if (st->json) {
            occ_json_head(out, file, k->target, k->name);
            occ_json_key(out, "error");
            occ_json_string(out, "target not modelled");
            fputs("}\n", out);
        } else {
            fprintf(out, "\n%s: target not modelled (kernel %s)\n", k->target, k->name);
            occ_last_target[0] = '\0';
        }
        return;
    }
    if (st->json)
        occ_print_json(out, st, file, k, &r);
    else
        occ_print_text(out, st, k, &r);
}

void occ_report_skipped(FILE *out, const occ_settings *st, const char *file, const char *line)
{
    if (st->json) {
        fputs("{\"file\":", out);
        occ_json_string(out, file);
        occ_json_key(out, "skipped");
        occ_json_string(out, line);
        fputs("}\n", out);
    } else {
        fprintf(out, "  skipped: %s\n", line);
    }
}
