#!/usr/bin/env bash
# Nsight Compute evidence for the benchmark notes: one launch of each kernel kind the family issue
# added, beside the plain forward of the same shape, with the metrics that say what bounds it (DRAM
# throughput, issue slots, local-memory spill traffic, shared-memory bank conflicts, stall reasons).
# Usage: [HSM_NCU_METRICS=list] bench/ncu-ops.sh BUILD_DIR OUT_FILE [hipsoftmax-bench options for one
# extra case...]   (HSM_NCU_METRICS: other metrics than these, as bench/ncu-channel.sh gives)
set -uo pipefail
build=${1:?build dir}
out=${2:?output file}
shift 2
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
metrics=${HSM_NCU_METRICS:-gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio}
one() { # label, bench options...
  local label=$1
  shift
  echo "== $label: $*" >> "$out"
  ncu --clock-control none --kernel-name regex:hsm_ --launch-skip 30 --launch-count 1 --metrics "$metrics" \
    "$bench" --reps 3 "$@" 2>&1 | grep -E "hsm_|gpu__|dram__|smsp__|sm__|l1tex__|launch__" >> "$out"
}
: > "$out"
if [ $# -gt 0 ]; then one "extra" "$@"; exit 0; fi
one "plain fp32" --dtype fp32 --shape 4096x4096
one "log fp32" --dtype fp32 --algo log --shape 4096x4096
one "plain fp32 1K" --dtype fp32 --shape 4096x1024
one "log fp32 1K" --dtype fp32 --algo log --shape 4096x1024
one "log bf16 1K" --dtype bf16 --algo log --shape 4096x1024
one "bwd fp32 4K" --op bwd --dtype fp32 --shape 4096x4096
one "bwd bf16 16K" --op bwd --dtype bf16 --shape 4096x16384
one "bwd fp32 64K" --op bwd --dtype fp32 --shape 4096x65536
one "mask bf16" --dtype bf16 --scale 0.125 --mask add --heads 16 --queries 1024 --mask-batches 8 --mask-rows 1024 --shape 131072x1024
one "causal bf16" --dtype bf16 --scale 0.125 --mask causal --queries 1024 --shape 131072x1024
