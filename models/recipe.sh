#!/usr/bin/env bash
# The whole training recipe of the committed models, one command (models/README.md, "Training"):
#
#   bash models/recipe.sh WORKDIR [INIT]
#
# Run from the repository root with the train extra installed (pip install -e '.[train]') and
# ../shared beside the repository. Writes WORKDIR/{procart,stills,tilenet,reader,tilenet2}/ and, at
# the end, WORKDIR/tiles.onnx and WORKDIR/reader.onnx (int8), to be copied to models/ after evaluation.
# INIT warm-starts the detector: a models.train checkpoint (.pt) or an exported detector (.onnx; the
# committed one is models/tiles.onnx, read back by models/from_onnx.py). The committed models were
# warm-started; without INIT the detector starts from scratch and needs several times the 100 minutes
# given here. Budgets (environment):
# DETECTOR_MINUTES, READER_MINUTES, DETECTOR2_MINUTES (the second stage), STILLS.
# Both trainings use one core each; they run side by side.
set -euo pipefail
work=${1:?usage: bash models/recipe.sh WORKDIR [INIT]}
init=${2:-}
shared=../shared
py=${PYTHON:-python}
stills=${STILLS:-1600}  # w1; w2 has 1000 and w3 1200, as the committed models had
mkdir -p "$work"

. "$(dirname "$0")/recipe_common.sh"  # wait_all, quantize_both

echo "1/6 procedural art sets (48 with seed 1; 48 more with seed 2 for the reader's third stills)" >&2
$py -m datasets.art.procedural --count 48 --seed 1 --variety 1 --out "$work/procart" > "$work/procart.log"
$py -m datasets.art.procedural --count 48 --seed 2 --variety 1 --out "$work/procart2" > "$work/procart2.log"

shared_sets=()
for _ in 1 2 3 4 5 6 7 8; do  # the two shared sets: about a quarter of the stills
    shared_sets+=(--tileset "$shared/tileart/fluffystuff" --tileset "$shared/tileart/kmahjongg-default")
done
tilesets=("${shared_sets[@]}")
for d in "$work"/procart/set*; do tilesets+=(--tileset "$d"); done
tilesets2=("${shared_sets[@]}")
for d in "$work"/procart2/set*; do tilesets2+=(--tileset "$d"); done
logs=(--log tracker/samples/jansou-mleague-hanchan.mjai.jsonl)
for f in "$shared"/data/logs/tenhou6/*.json; do logs+=(--log "$f"); done

echo "2/6 training stills (3 workers: $stills, 1000, 1200)" >&2
pids=()
for spec in "1 $stills" "2 1000"; do
    set -- $spec
    OMP_NUM_THREADS=1 $py -m tracker.cli stills --count "$2" --seed $(($1 + 2))000 \
        --out "$work/stills/w$1" "${tilesets[@]}" "${logs[@]}" 2> "$work/stills-w$1.log" &
    pids+=($!)
done
OMP_NUM_THREADS=1 $py -m tracker.cli stills --count 1200 --seed 5000 \
    --out "$work/stills/w3" "${tilesets2[@]}" "${logs[@]}" 2> "$work/stills-w3.log" &
pids+=($!)
wait_all 2 "${pids[@]}"

art=(--art "$shared/tileart/fluffystuff" --art "$shared/tileart/kmahjongg-default")
for d in "$work"/procart/set*; do art+=(--art "$d"); done
data=(--data "$shared/data/real/riichi-jp/train@2" --data "$shared/data/real/chinese/train"
      --data "$work/stills/w1" --data "$work/stills/w2")

echo "3/6 detector and reader training, side by side" >&2
OMP_NUM_THREADS=1 $py -m models.train "${data[@]}" "${art[@]}" --paste 0.3 --lr 2e-3 --batch 16 \
    --minutes "${DETECTOR_MINUTES:-100}" ${init:+--init "$init"} --out "$work/tilenet" > "$work/tilenet.log" &
pids=($!)
OMP_NUM_THREADS=1 $py -m models.train_reader --data "$shared/data/real/riichi-jp/train@4" \
    --data "$shared/data/real/chinese/train@2" --data "$work/stills/w1" --data "$work/stills/w2" \
    --data "$work/stills/w3" --minutes "${READER_MINUTES:-95}" --out "$work/reader" > "$work/reader.log" &
pids+=($!)
wait_all 3 "${pids[@]}"

echo "4/6 second stage: the detector again from its step-3 weights, gentler (lr 1e-3), with the" \
    "resolution-loss augmentation of models/augment.py (the reader's fine-tune did not help: not kept)" >&2
OMP_NUM_THREADS=1 $py -m models.train "${data[@]}" "${art[@]}" --paste 0.3 --lr 1e-3 --batch 16 \
    --minutes "${DETECTOR2_MINUTES:-80}" --init "$work/tilenet/last.pt" --out "$work/tilenet2" \
    > "$work/tilenet2.log" || { echo "recipe: step 4 failed; see $work/tilenet2.log" >&2; exit 1; }

echo "5/6 int8 quantization" >&2
quantize_both "$work/tilenet2/tiles.onnx" "$work/reader/reader.onnx" "$work/stills/w1" "$work/stills/w2"

echo "6/6 done: evaluate $work/tiles.onnx and $work/reader.onnx (models/README.md, Metrics)" >&2
