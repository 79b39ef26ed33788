#!/usr/bin/env bash
# Writes tests/data/plan_table.txt: `vkdml plan` for every shape below on every device setting below, each
# case a line "## <the plan command's arguments>" followed by the plan it printed. test_plan_table.cpp
# plans each case again through describe_plan and compares the text. Regenerate with a build whose plans
# are known good (a planner change that means to change plans regenerates it and says why):
#   tests/data/make_plan_table.sh build/dev/tools/vkdml > tests/data/plan_table.txt
set -euo pipefail
tool=${1:?usage: make_plan_table.sh PATH/TO/vkdml}
shapes=(
  "--op cumsum --dtype float32 --shape 1048576 --axis 0"
  "--op cumsum --dtype uint32 --shape 40,16 --axis 0"
  "--op cumprod --dtype float16 --shape 1000,1024 --axis 1 --exclusive"
  "--op cumsum --dtype int64 --shape 4096,1028 --axis 0 --reverse"
  "--op cumsum --dtype float64 --shape 3,64 --axis 1"
  "--op cumsum --dtype uint8 --shape 7,300000 --axis 1"
  "--op reduce --dtype float32 --shape 1048576 --axes all --function sum"
  "--op reduce --dtype float32 --shape 1024,1024 --axis 1 --function l2"
  "--op reduce --dtype int32 --shape 4096,4096 --axis 0 --function max"
  "--op reduce --dtype float16 --shape 1000000,3 --axis 1 --function average"
  "--op reduce --dtype float64 --shape 2,3,4,5 --axes 1,3 --function log_sum_exp"
  "--op argmax --dtype float32 --shape 1024,1024 --axis 1"
  "--op argmin --dtype uint16 --shape 65537,5 --axes 0 --reverse"
)
devices=(
  "--class cpu --subgroup 4"
  "--class cpu --subgroup 16"
  "--class cpu --subgroup 8 --kernels cooperative"
  "--class gpu --subgroup 32"
  "--class gpu --subgroup 64"
  "--class gpu --subgroup 32 --kernels serial"
  "--class gpu --subgroup 16 --max-range 1048576"
  "--class gpu --subgroup 32 --no-subgroup-ops"
)
for shape in "${shapes[@]}"; do
  for device in "${devices[@]}"; do
    echo "## $shape $device"
    # shellcheck disable=SC2086 # the arguments are words on purpose
    "$tool" plan $shape $device
  done
done
