/* occ_report.h: one kernel on one target, both occupancy models, printed as a table row or a JSON
 * line. Private to the hipsoftmax-occupancy CLI, do not expose. */
#ifndef HIPSOFTMAX_OCC_REPORT_H_71D0A4
#define HIPSOFTMAX_OCC_REPORT_H_71D0A4

#include <stdint.h>
#include <stdio.h>

#include "arch.h"

typedef struct occ_settings {
    int block;                 /* threads per block */
    int64_t rows;              /* rows of the softmax: the tutorial's n_rows */
    int json;                  /* one JSON object per line instead of tables */
    int regs_per_block;        /* CDNA regsPerBlock to model: 0 = show 65536 and 131072 side by side */
    int waves_per_simd;        /* AMD max waves per SIMD override; 0 = the table's (clr's) value */
    arch_amd_options amd;      /* LLVM switches for the exact AMD model */
} occ_settings;

/* The rows of one file (or of the what-if kernel) share one header per target: occ_report_begin
 * resets that grouping, occ_report_kernel prints one kernel. file may be NULL (what-if). */
void occ_report_begin(FILE *out);
void occ_report_kernel(FILE *out, const occ_settings *st, const char *file, const arch_kernel *k);
void occ_report_skipped(FILE *out, const occ_settings *st, const char *file, const char *line);

/* Writes s as a JSON string, quotes included, escaping what RFC 8259 requires. */
void occ_json_string(FILE *out, const char *s);

#endif /* HIPSOFTMAX_OCC_REPORT_H_71D0A4 */
