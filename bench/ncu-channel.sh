#!/usr/bin/env bash
# Nsight Compute evidence for CHANNEL mode: one launch of each kernel the plan picks on the large
# shapes of issue 13 (and any kernel forced with HSM_NCU_KERNELS="name ..."), with the metrics that
# say what bounds it: DRAM throughput and bytes, issue slots, instructions, occupancy, stall reasons;
# and each such kernel's SASS, for counting the instructions of its loops.
# Usage: bench/ncu-channel.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
mkdir -p "$out"
lib=$(ls "$build"/*/libhipsoftmax_nvidia.so | head -n 1)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,\
dram__bytes_write.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,launch__block_size,launch__grid_size,sm__cycles_elapsed.avg,\
smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,smsp__inst_executed_pipe_xu.sum,\
l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
here=$(cd "$(dirname "$0")" && pwd)
one() { # label, bench options...: ncu-ops.sh's one extra case, with these metrics
  local label=$1
  shift
  HSM_NCU_METRICS=$metrics "$here/ncu-ops.sh" "$build" "$out/ncu-one.txt" "$@"
  sed "s/^== extra:/== $label:/" "$out/ncu-one.txt" >> "$out/ncu-channel.txt"
  rm -f "$out/ncu-one.txt"
}
: > "$out/ncu-channel.txt"
for dt in bf16 fp32; do
  one "fwd $dt ADE" --dtype $dt --shape 16x150x16384
  one "bwd $dt ADE" --op bwd --dtype $dt --shape 16x150x16384
  one "fwd $dt 32x64" --dtype $dt --shape 32x64x16384
done
for k in ${HSM_NCU_KERNELS:-}; do
  dt=fp32
  case $k in *bf16*) dt=bf16 ;; *f16*) dt=fp16 ;; esac
  op=fwd
  case $k in *_bwd) op=bwd ;; esac
  one "forced $k" --op $op --dtype $dt --kernel "$k" --shape 16x150x16384
done
kernels=$(grep -o 'hsm_channel_[a-z0-9_]*' "$out/ncu-channel.txt" | sort -u)
for k in $kernels; do
  echo "==== $k"
  cuobjdump -sass -fun "$k" "$lib" 2>&1
done > "$out/sass-channel.txt"
