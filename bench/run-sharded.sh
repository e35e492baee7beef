#!/usr/bin/env bash
# The sharded-softmax run of issue 15, on a machine with two (or more) NVIDIA GPUs and PyTorch:
#   1. configure the sm_90 preset with the NCCL that ships inside the Python environment (the
#      nvidia-nccl wheel: site-packages/nvidia/nccl) and build the example and the benchmark;
#   2. examples/sharded_softmax: correctness against one GPU, every family and dtype, on every GPU
#      (one shard each, then two virtual shards each) and on one GPU (two virtual shards);
#   3. its --bench mode (statistics + all-gather + normalise, the LM-head shapes, over 2 GPUs);
#   4. bench/sharded_torch.py: the three-pass torch.distributed recipe on the same shapes and GPUs, in
#      the logits' dtype and (--upcast) in fp32 as Megatron-LM runs it;
#   5. hipsoftmax-bench on one GPU's slice of each shape: the device copy bandwidth (copy_peak) and the
#      unsharded kernel on the same bytes;
#   6. a summary table: each shape's time, collective share, and the ratio to the torch recipe.
# Every log lands in OUTDIR; each step is bounded by `timeout` (about 6 minutes in all). Exits non-zero
# when a step failed (the others still run).
# Usage: bench/run-sharded.sh OUTDIR      (PYTHON=<interpreter with torch>, default python3)
set -uo pipefail
out=${1:?usage: bench/run-sharded.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
py=${PYTHON:-python3}
preset=sm_90
build=build/$preset
failed=0
step() { # step NAME SECONDS CMD...: runs CMD with a time limit, its output in OUTDIR/NAME.log and on stdout
  local name=$1 secs=$2
  shift 2
  echo "== $name: $*"
  local t0=$SECONDS
  timeout "$secs" "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  echo "== $name: exit $rc, $((SECONDS - t0)) s"
  if [ "$rc" -ne 0 ]; then
    failed=1
  fi
  return "$rc"
}

nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv >"$out/gpus.csv" 2>&1 || true
cat "$out/gpus.csv"

# The NCCL root: the Python environment's, where it has one; otherwise CMake searches the CUDA
# toolkit and the system (cmake/HsmCollective.cmake).
nccl_root=$("$py" -c "import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])" 2>/dev/null || true)
echo "NCCL root from $py: ${nccl_root:-none (CMake searches)}"
if ! step configure 120 cmake --preset "$preset" -DHIPSOFTMAX_NCCL_ROOT="$nccl_root"; then
  exit 1
fi
if ! step build 420 cmake --build "$build" -j "$(nproc)" --target sharded_softmax-nvidia hipsoftmax-bench-nvidia; then
  exit 1
fi
ex=$build/examples/sharded_softmax-nvidia
if [ ! -x "$ex" ]; then
  echo "examples/sharded_softmax was not built (NCCL not found: see $out/configure.log)"
  exit 1
fi

step correctness-all-gpus 120 "$ex"
step correctness-all-gpus-virtual2 120 "$ex" --virtual 2
step correctness-one-gpu 120 "$ex" --gpus 1 --virtual 2
step bench-hipsoftmax 120 "$ex" --bench --gpus 2
step bench-torch 150 "$py" bench/sharded_torch.py --gpus 2 --port 29531
step bench-torch-upcast 150 "$py" bench/sharded_torch.py --gpus 2 --port 29541 --upcast

# One GPU's slice of each shape, unsharded (no statistics, no collective), and the device copy peak.
b=$build/bench/hipsoftmax-bench-nvidia
step bench-slice-bf16 60 "$b" --dtype bf16 --shape 4096x64128 --shape 8192x75968
step bench-slice-f32 60 "$b" --dtype fp32 --shape 64x131072

# Summary: hipsoftmax (statistics + all-gather + normalise) against the torch.distributed recipe.
{
  echo "| shape | dtype | GPUs | hipsoftmax ms | its collective share | GB/s per GPU | copy GB/s | torch recipe ms | its collective share | torch / hipsoftmax | torch fp32 (upcast) ms | hipsoftmax, 1 GPU, whole rows ms |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  grep -h '^RESULT hipsoftmax' "$out/bench-hipsoftmax.log" 2>/dev/null | while read -r _ _ shape dt gpus total coll gbs copy one; do
    t=${total#total_ms=}
    c=${coll#collective_ms=}
    line=$(grep -h "^RESULT torch $shape $dt " "$out/bench-torch.log" 2>/dev/null | head -n 1)
    tt=$(echo "$line" | sed -n 's/.*total_ms=\([0-9.]*\).*/\1/p')
    tc=$(echo "$line" | sed -n 's/.*collective_ms=\([0-9.]*\).*/\1/p')
    up=$(grep -h "^RESULT torch-upcast $shape $dt " "$out/bench-torch-upcast.log" 2>/dev/null | head -n 1 |
         sed -n 's/.*total_ms=\([0-9.]*\).*/\1/p')
    awk -v s="$shape" -v d="$dt" -v g="${gpus#gpus=}" -v t="$t" -v c="$c" -v gb="${gbs#gbs=}" -v cp="${copy#copy_gbs=}" \
        -v tt="$tt" -v tc="$tc" -v up="$up" -v one="${one#one_gpu_ms=}" 'BEGIN {
      if (tt == "") { tts = "-"; tcs = "-"; r = "-" } else { tts = sprintf("%.3f", tt); tcs = sprintf("%.1f%%", 100 * tc / tt); r = sprintf("%.2fx", tt / t) }
      ups = up == "" ? "-" : sprintf("%.3f", up)
      printf "| %s | %s | %s | %.3f | %.1f%% | %.0f | %.0f | %s | %s | %s | %s | %.3f |\n", s, d, g, t, 100 * c / t, gb, cp, tts, tcs, r, ups, one }'
  done
} >"$out/summary.md"
echo
echo "== summary ($out/summary.md)"
cat "$out/summary.md"
exit "$failed"
