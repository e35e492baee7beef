/* arch.h: the arch module's interface. Private to hipsoftmax, do not expose.
 *
 * arch/ is plain C11 over libc: no GPU, no vendor runtime. It reads compiled code objects
 * (AMDGPU ELF, clang offload bundles, NVIDIA cubins and fatbins, and host objects, executables or
 * shared libraries that embed them), describes targets, and models occupancy two ways:
 *   - the Triton fused-softmax tutorial's formula, exactly as written (plus definitions where the
 *     formula itself is undefined), and
 *   - an exact per-vendor model (ROCm clr's hipOccupancyMaxActiveBlocksPerMultiprocessor for AMD,
 *     NVIDIA's cuda_occupancy.h for NVIDIA).
 * Every function returns an arch_status; outputs are written only on ARCH_OK.
 */
#ifndef HIPSOFTMAX_ARCH_H_5F1C3A
#define HIPSOFTMAX_ARCH_H_5F1C3A

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arch_status {
    ARCH_OK = 0,
    ARCH_ERR_CORRUPT = 1,     /* the input is malformed: truncated, out-of-bounds offsets, bad MessagePack */
    ARCH_ERR_UNSUPPORTED = 2, /* valid but not handled: compressed entries, unknown format, PTX only */
    ARCH_ERR_LIMIT = 3,       /* over an explicit limit (nesting depth, node count, kernel count) */
    ARCH_ERR_NOMEM = 4,       /* an allocation failed */
    ARCH_ERR_INVALID = 5,     /* API misuse: NULL pointer, out-of-range argument */
    ARCH_ERR_NOT_FOUND = 6,   /* a lookup found nothing (unknown target name, no such kernel) */
    ARCH_ERR_IO = 7           /* a system call failed (arch_read_file): arch_error.sys_errno says why */
} arch_status;

const char *arch_status_string(arch_status s); /* static string, never NULL */

/* Where an operation failed. Parsers record the first error only (later ones are consequences):
 * the structure being read and the byte offset, from the start of the whole input, where it
 * starts or where the bad field lies. arch_read_file records the step that failed and errno. */
typedef struct arch_error {
    arch_status status;            /* ARCH_OK while no error */
    const char *what;              /* static text naming the structure or step ("ELF section header",
                                    * "fatbin entry header", "work budget", "open"); "" when none */
    int64_t offset;                /* byte offset in the input; -1 where no position applies */
    int sys_errno;                 /* errno of a failed system call, 0 otherwise */
    int64_t size;                  /* arch_read_file: the size fstat reported for a file over the
                                    * limit; -1 otherwise */
} arch_error;

/* Formats e as one line: "<status>: <what> at byte <offset> (0x<hex>)" for parse errors,
 * "<what>: <strerror(sys_errno)>" for system errors and "<status>: <what> (<size> bytes)" for a
 * file over the limit. Writes at most n bytes (NUL included) and returns buf. Calls strerror,
 * which is not thread-safe. Added in 0.2. */
const char *arch_error_format(const arch_error *e, char *buf, size_t n);

typedef enum arch_vendor {
    ARCH_VENDOR_UNKNOWN = 0,
    ARCH_VENDOR_AMD = 1,
    ARCH_VENDOR_NVIDIA = 2
} arch_vendor;

/* ---- targets ---------------------------------------------------------------------------------- */

/* Every property the two models need. Tables hold the values for known targets; where a device is
 * present the library fills the runtime-reported fields from the runtime instead. */
typedef struct arch_device {
    arch_vendor vendor;
    char name[32];                 /* base target name: "gfx942", "sm_90" */
    int cc_major, cc_minor;        /* NVIDIA compute capability; AMD: gfx major/minor digits */
    /* runtime-reported properties (what cudaGetDeviceProperties / hipGetDeviceProperties say) */
    int num_cus;                   /* multiProcessorCount */
    int warp_size;                 /* warpSize */
    int max_threads_per_cu;        /* maxThreadsPerMultiProcessor */
    int max_threads_per_block;     /* maxThreadsPerBlock */
    int regs_per_block;            /* regsPerBlock: the tutorial's NUM_REGS */
    int regs_per_cu;               /* regsPerMultiprocessor (NVIDIA) */
    size_t smem_per_block;         /* sharedMemPerBlock */
    size_t smem_per_block_optin;   /* sharedMemPerBlockOptin (NVIDIA); = smem_per_block on AMD */
    size_t smem_per_cu;            /* sharedMemPerMultiprocessor / LDS per CU */
    size_t reserved_smem_per_block;/* reservedSharedMemPerBlock (NVIDIA sm_80+: 1 KiB) */
    int max_blocks_per_cu;         /* maxBlocksPerMultiProcessor (NVIDIA) */
    /* AMD exact-model parameters (ROCm clr rules, arch/README.md); zero on NVIDIA */
    int simds_per_cu;              /* 4 on CDNA */
    int max_waves_per_simd;        /* 8 per ROCm clr; LLVM says 10 on gfx908 */
    int vgprs_per_simd_lane;       /* 512 (gfx90a, gfx942 unified) or 256 (gfx908 arch VGPRs) */
    int vgpr_granule;              /* 8 (gfx90a, gfx942) or 4 (gfx908) */
    int sgprs_per_simd;            /* 800 */
    int sgpr_granule;              /* 16 */
    int lds_granule;               /* 512 bytes on gfx9 (used only when the LLVM switch is on) */
    int is_cdna;                   /* in the tutorial's doubling list (gfx908, gfx90a, gfx940-942) */
    /* NVIDIA exact-model parameters (cuda_occupancy.h); zero on AMD. Table-only: no runtime reports them */
    int warp_subpartitions;        /* SM sub-partitions: 4 */
    int reg_alloc_unit;            /* registers are allocated per warp in units of 256 */
    int reg_alloc_max_per_thread;  /* cuda_occupancy.h's per-thread allocation limit: 256 */
    int smem_alloc_unit;           /* shared memory allocated per block in units of 128 bytes */
    int n_smem_configs;            /* number of entries in smem_configs_kib */
    int smem_configs_kib[12];      /* shared-memory carveout sizes the SM can be set to, KiB, ascending */
} arch_device;

/* Reduces any target spelling to its base name, the one the tables and the arch_image lookups
 * compare (one normaliser for both):
 *   - a triple prefix is dropped, everything up to the last "--": "amdgcn-amd-amdhsa--gfx942",
 *     "hipv4-amdgcn-amd-amdhsa--gfx942" -> "gfx942";
 *   - target features are dropped, everything from the first ':': "gfx942:sramecc+:xnack-" -> "gfx942";
 *   - a bare compute capability gets its prefix: "90" -> "sm_90";
 *   - NVIDIA's arch- and family-specific suffix letters are dropped: "sm_90a" -> "sm_90",
 *     "sm_100f" -> "sm_100" (AMD names keep theirs: "gfx90a").
 * The name need not be in the tables ("gfx1100" -> "gfx1100"). out receives outsz bytes at most.
 * Returns ARCH_OK with out NUL-terminated; ARCH_ERR_INVALID for a NULL pointer or outsz 0;
 * ARCH_ERR_NOT_FOUND when no base name remains ("", ":xnack-", "--"); ARCH_ERR_LIMIT when it does
 * not fit in outsz. out is "" on every error. Added in 0.2. */
arch_status arch_target_base(const char *name, char *out, size_t outsz);

/* Looks a target up by any spelling arch_target_base accepts ("gfx942", "gfx942:sramecc+:xnack-",
 * "amdgcn-amd-amdhsa--gfx942", "sm_90", "sm_90a", "90").
 * regs_per_block_amd selects the CDNA runtime's regsPerBlock (65536 older ROCm, 131072 newer); 0 = 65536.
 * Returns ARCH_ERR_NOT_FOUND for an unknown name. */
arch_status arch_target_lookup(const char *name, int regs_per_block_amd, arch_device *out);

/* Number of known targets and the i-th one's name (for listings), NULL past the end. */
size_t arch_target_count(void);
const char *arch_target_name(size_t i);

/* ---- kernels read from code objects ------------------------------------------------------------ */

typedef struct arch_kernel {
    char name[256];                /* kernel symbol (truncated with a NUL if longer) */
    arch_vendor vendor;
    char target[64];               /* full target string: "gfx942:sramecc+:xnack-", "sm_90" */
    /* AMD (from the NT_AMDGPU_METADATA note) */
    int vgprs;                     /* .vgpr_count (AGPRs already included) */
    int agprs;                     /* .agpr_count (-1 where the target has none) */
    int sgprs;                     /* .sgpr_count */
    /* NVIDIA (EIATTR_REGCOUNT) */
    int regs;                      /* registers per thread; on AMD = vgprs, so callers may use one field */
    uint32_t static_smem;          /* .group_segment_fixed_size / .nv.shared.<kernel> size, bytes */
    uint32_t scratch;              /* .private_segment_fixed_size / frame size, bytes */
    int wave_size;                 /* .wavefront_size / 32 */
    int max_block;                 /* .max_flat_workgroup_size / EIATTR_MAX_THREADS; 0 = not set */
    int vgpr_spills, sgpr_spills;  /* spill counts (AMD); -1 where unknown */
    int descriptor_mismatch;       /* 1 where the kernel descriptor / section header disagrees */
} arch_kernel;

/* A parsed file: a flat list of kernels, each naming its target, plus notes on entries that were
 * present but not read (compressed, PTX-only) so that reports can say so instead of skipping them. */
struct arch_image_index;

typedef struct arch_image {
    arch_kernel *kernels;
    size_t n_kernels;
    char (*skipped)[128];          /* one human-readable line per entry not read */
    size_t n_skipped;
    struct arch_image_index *index;/* private: the kernels sorted for lookups (NULL: lookups scan) */
} arch_image;

/* Parses any supported file held in memory: AMDGPU code object, clang offload bundle, NVIDIA cubin,
 * NVIDIA fatbin, or an ELF host object / executable / shared library with a .hip_fatbin or
 * .nv_fatbin section. Every byte is untrusted. The work is bounded as well as the size: one work
 * budget per parse (a few operations per input byte) covers every nested reader, symbols and
 * sections are indexed once, and a payload named by several bundle entries is read once; an input
 * that would need more is refused with ARCH_ERR_LIMIT ("work budget"). On success *out owns heap
 * memory, kernels indexed for arch_image_find: free it with arch_image_free. On failure *out is
 * left empty. */
arch_status arch_image_parse(const void *data, size_t len, arch_image *out);

/* arch_image_parse, and on failure *err (may be NULL) says which structure failed and at which
 * byte offset of data; on success err->status is ARCH_OK. Added in 0.2. */
arch_status arch_image_parse_ex(const void *data, size_t len, arch_image *out, arch_error *err);

void arch_image_free(arch_image *img); /* accepts NULL and an empty image */

/* Finds a kernel by exact name for a target whose base name equals target's (both reduced by
 * arch_target_base, so "90", "sm_90a", "amdgcn-amd-amdhsa--gfx942" and "gfx942:sramecc+:xnack-"
 * all work; a spelling without a base name compares as written). The first such kernel in image
 * order; NULL when absent. O(log n) on a parsed image; an image assembled by hand is scanned. */
const arch_kernel *arch_image_find(const arch_image *img, const char *target, const char *kernel);

/* Finds the code of kernel that the vendor runtime would load on dev:
 *   - AMD: the kernel built for dev's base gfx name (target features are not compared);
 *   - NVIDIA: the SASS of the highest compute capability with dev's major and a minor <= dev's
 *     (an sm_86 device runs sm_80 code; an sm_90 device sm_90 code). A device with no such SASS
 *     (sm_100 with sm_90 code only) gives NULL: the runtime would JIT-compile PTX, whose resources
 *     no code object states.
 * Returns NULL for NULL arguments, an unknown vendor or no match. O(log n) on a parsed image.
 * Added in 0.2. */
const arch_kernel *arch_image_find_for_device(const arch_image *img, const arch_device *dev, const char *kernel);

/* ---- reading files ----------------------------------------------------------------------------- */

/* Reads a whole regular file into a heap buffer, bounded before anything is read:
 *   - opens without blocking (O_NONBLOCK, cleared after the check), so a FIFO cannot hang the caller;
 *   - refuses anything but a regular file (FIFO, device, socket: ARCH_ERR_UNSUPPORTED; a directory:
 *     ARCH_ERR_IO with EISDIR) and a file of more than max bytes (ARCH_ERR_LIMIT), by fstat, before
 *     allocating, so /dev/zero or a 10 GiB sparse file cost nothing;
 *   - reads exactly the size fstat reported; a file that shrinks or grows meanwhile is ARCH_ERR_IO.
 * On success *buf (free with free(); never NULL, even for an empty file) holds *len bytes. On
 * failure *buf is NULL, *len 0, and *err (may be NULL) says which step failed and errno; for
 * a regular file over the limit err->size holds its size. ARCH_ERR_INVALID for NULL path/buf/len.
 * Added in 0.2. */
arch_status arch_read_file(const char *path, size_t max, void **buf, size_t *len, arch_error *err);

/* The same for an open descriptor the caller owns (stdin): a regular file as above; a pipe or
 * socket is read to its end, failing with ARCH_ERR_LIMIT once more than max bytes arrive; anything
 * else is ARCH_ERR_UNSUPPORTED. Leaves the descriptor open. Added in 0.2. */
arch_status arch_read_fd(int fd, size_t max, void **buf, size_t *len, arch_error *err);

/* ---- occupancy models -------------------------------------------------------------------------- */

typedef enum arch_limiter {
    ARCH_LIMIT_NONE = 0,
    ARCH_LIMIT_REGISTERS = 1,      /* VGPRs (AMD) or registers (NVIDIA) */
    ARCH_LIMIT_SGPRS = 2,
    ARCH_LIMIT_SHARED = 3,         /* LDS / shared memory */
    ARCH_LIMIT_WAVES = 4,          /* wave slots per SIMD / warps per SM */
    ARCH_LIMIT_BLOCKS = 5,         /* block (workgroup) slots per CU/SM, or the barrier limit */
    ARCH_LIMIT_BLOCK_SIZE = 6      /* the block is larger than the kernel or device allows: 0 blocks */
} arch_limiter;

const char *arch_limiter_string(arch_limiter l);

/* Switches where the sources disagree (arch/README.md): defaults follow ROCm clr. */
typedef struct arch_amd_options {
    int llvm_barrier_limit;        /* cap multi-wave workgroups at 16 per CU */
    int llvm_lds_granule;          /* allocate LDS in lds_granule units */
} arch_amd_options;

typedef struct arch_occupancy {
    int blocks_per_cu;             /* resident blocks per CU/SM (0: cannot launch) */
    arch_limiter limiter;          /* what bounds blocks_per_cu */
    int waves_per_simd;            /* AMD: resident waves per SIMD; NVIDIA: 0 */
    int warps_per_cu;              /* resident warps per CU/SM */
} arch_occupancy;

/* Exact model for the device's vendor. block_threads > 0; dyn_smem in bytes per block.
 * amd_opt may be NULL (clr defaults). A block over the device's or the kernel's (k->max_block, when
 * set) maximum gives 0 blocks with ARCH_LIMIT_BLOCK_SIZE. NVIDIA: the kernel is taken as opted in to
 * the device's maximum dynamic shared memory, so static + dynamic up to smem_per_block_optin fits.
 * Returns ARCH_ERR_INVALID for NULL pointers, block_threads <= 0, an unknown vendor, table parameters
 * the model divides by that are not positive, or a negative NVIDIA register count. */
arch_status arch_occupancy_exact(const arch_device *dev, const arch_kernel *k, int block_threads,
                                 size_t dyn_smem, const arch_amd_options *amd_opt,
                                 arch_occupancy *out);

/* The tutorial's formula, exactly as written, for num_warps warps per program and n_rows rows.
 * size_smem == 0 means "no shared-memory limit"; a non-CDNA AMD target uses NUM_REGS undoubled.
 * Where the formula is undefined (n_regs == 0, ...) returns ARCH_ERR_INVALID and sets why. */
typedef struct arch_tutorial {
    int num_gprs;                  /* NUM_GPRS (AMD) or NUM_REGS (NVIDIA) used */
    int occupancy;                 /* programs per CU/SM */
    int64_t num_programs;          /* min(NUM_SM * occupancy, n_rows) */
    const char *why_undefined;     /* NULL when defined */
} arch_tutorial;

arch_status arch_occupancy_tutorial(const arch_device *dev, int n_regs, size_t size_smem,
                                    int num_warps, int64_t n_rows, arch_tutorial *out);

#ifdef __cplusplus
}
#endif
#endif /* HIPSOFTMAX_ARCH_H_5F1C3A */
