/* arch.cli.json_escape: the CLI's JSON output for names no code object should hold but any may
 * (quotes, backslashes, control and non-ASCII bytes), and for a target the tables do not model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "model_check.h"
#include "occ_report.h"

/* Runs fn into a temporary file and returns what it wrote (static buffer). */
static const char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
    static char buf[4096];
    FILE *f = tmpfile();
    MODEL_CHECK(f != NULL);
    if (f == NULL)
        return "";
    fn(f, arg);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void write_string(FILE *f, const void *s) { occ_json_string(f, s); }

static const occ_settings json_settings = {.block = 256, .rows = 4096, .json = 1};

static void write_kernel(FILE *f, const void *k)
{
    occ_report_begin(f);
    occ_report_kernel(f, &json_settings, "dir/a\"b.co", k);
}

static void write_skipped(FILE *f, const void *line) { occ_report_skipped(f, &json_settings, "x.fatbin", line); }

int main(void)
{
    MODEL_CHECK(strcmp(capture(write_string, "plain"), "\"plain\"") == 0);
    MODEL_CHECK(strcmp(capture(write_string, "a\"b\\c"), "\"a\\\"b\\\\c\"") == 0);
    MODEL_CHECK(strcmp(capture(write_string, "t\tn\nr\r\x01\x1f"), "\"t\\tn\\nr\\r\\u0001\\u001f\"") == 0);
    MODEL_CHECK(strcmp(capture(write_string, "\xff"), "\"\\u00ff\"") == 0);
    MODEL_CHECK(strcmp(capture(write_string, ""), "\"\"") == 0);

    arch_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "odd\"name\\\x02");
    snprintf(k.target, sizeof k.target, "gfx1100");
    const char *out = capture(write_kernel, &k);
    MODEL_CHECK(strcmp(out, "{\"file\":\"dir/a\\\"b.co\",\"target\":\"gfx1100\",\"kernel\":\"odd\\\"name\\\\\\u0002\","
                            "\"error\":\"target not modelled\"}\n") == 0);

    snprintf(k.target, sizeof k.target, "sm_86");
    k.regs = 40;
    out = capture(write_kernel, &k);
    /* 40 x 32 = 1280 per warp, 16384 per sub-partition: 12 warps x 4 = 48 = 6 blocks of 8 warps;
     * 48 warps per SM also allow 6: the registers bind first in the report order */
    MODEL_CHECK(strstr(out, "\"exact_blocks_per_cu\":6,\"exact_limiter\":\"registers\",\"warps_per_sm\":48") != NULL);
    MODEL_CHECK(strstr(out, "\"vgprs\":null,\"agprs\":null,\"sgprs\":null,\"regs\":40") != NULL);

    out = capture(write_skipped, "compressed \"CCOB\" bundle");
    MODEL_CHECK(strcmp(out, "{\"file\":\"x.fatbin\",\"skipped\":\"compressed \\\"CCOB\\\" bundle\"}\n") == 0);
    if (model_failures)
        fprintf(stderr, "last output: %s", out);
    return model_report("arch.cli.json_escape");
}
