#!/usr/bin/env bash
# Profile one training step of model.py with Nsight Compute (the sections the
# rules read, source counters among them, and their ncu rules; source
# imported) and export its raw, source and details pages. Needs an NVIDIA
# GPU, PyTorch with Triton, and ncu.
#   bash bench/step/run.sh OUT_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?OUT_DIR}
mkdir -p "$out"
export TORCHINDUCTOR_CACHE_DIR="$out/inductor" TRITON_CACHE_DIR="$out/triton_cache"
cd "$out"
{ ncu --version | tail -n 1; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'; } > versions.txt
sections=(SpeedOfLight LaunchStats Occupancy WarpStateStats SourceCounters WorkloadDistribution
  MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Chart MemoryWorkloadAnalysis_Tables)
ncu "${sections[@]/#/--section=}" --import-source yes --clock-control none --profile-from-start off --launch-count 330 -f -o step python3 "$here/model.py" > ncu.log 2>&1
ncu -i step.ncu-rep --csv --page raw --print-units base > raw.csv
ncu -i step.ncu-rep --csv --page source --print-source cuda,sass > source.csv
ncu -i step.ncu-rep --csv --page source --print-source sass > sass.csv
ncu -i step.ncu-rep --csv --page details --print-details all --print-units base > details.csv
