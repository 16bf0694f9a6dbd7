#!/usr/bin/env bash
# A third training stage, measured and NOT kept (models/README.md, "Measured and not kept"): both
# networks fine-tuned on what the tracker actually sees, keyframes of rendered H.264 clips. It lifts
# reading at the low camera on art it trained on, not on the unseen evaluation art. Run after
# recipe.sh, to reproduce that experiment or to repeat it with more art:
#
#   bash models/recipe_video.sh WORKDIR
#
# WORKDIR is recipe.sh's: it reads procart/, procart2/, tilenet2/last.pt and reader/last.pt there and
# writes clips/, clip-stills/, stills/s1/, tilenet3/, reader3/ and, at the end, WORKDIR/tiles.onnx and
# WORKDIR/reader.onnx (int8) again. Budget (environment): VIDEO_MINUTES (both fine-tunes, side by side).
set -euo pipefail
work=${1:?usage: bash models/recipe_video.sh WORKDIR}
shared=../shared
py=${PYTHON:-python}
mkdir -p "$work"

. "$(dirname "$0")/recipe_common.sh"  # wait_all, quantize_both

procart=("$work"/procart/set* "$work"/procart2/set*)
logs=(--log tracker/samples/jansou-mleague-hanchan.mjai.jsonl)
for f in "$shared"/data/logs/tenhou6/*.json; do logs+=(--log "$f"); done

echo "1/4 64 one-kyoku training clips (procedural art only; seeds from 20000) and 1000 new stills" >&2
clip_sets=()
for d in "${procart[@]}"; do clip_sets+=(--tileset "$d"); done
pids=()
for w in 0 1; do
    OMP_NUM_THREADS=1 $py -m datasets.train_clips --count 64 --out "$work/clips" "${clip_sets[@]}" "${logs[@]}" \
        --worker $w/2 > "$work/clips-w$w.log" 2>&1 &
    pids+=($!)
done
wait_all 1 "${pids[@]}"
still_sets=()
for _ in 1 2 3 4 5 6 7 8; do
    still_sets+=(--tileset "$shared/tileart/fluffystuff" --tileset "$shared/tileart/kmahjongg-default")
done
for d in "${procart[@]}"; do still_sets+=(--tileset "$d"); done
OMP_NUM_THREADS=1 $py -m tracker.cli stills --count 1000 --seed 6000 --out "$work/stills/s1" \
    "${still_sets[@]}" "${logs[@]}" 2> "$work/stills-s1.log"

echo "2/4 every other keyframe of each clip as labelled stills" >&2
$py -m datasets.clip_stills "$work"/clips/clip* --out "$work/clip-stills" --every 2 2> "$work/clip-stills.log"

echo "3/4 detector and reader fine-tuned side by side" >&2
art=(--art "$shared/tileart/fluffystuff" --art "$shared/tileart/kmahjongg-default")
for d in "$work"/procart/set*; do art+=(--art "$d"); done
OMP_NUM_THREADS=1 $py -m models.train --data "$shared/data/real/riichi-jp/train@2" \
    --data "$shared/data/real/chinese/train" --data "$work/stills/s1" --data "$work/clip-stills" "${art[@]}" \
    --paste 0.3 --lr 5e-4 --batch 16 --minutes "${VIDEO_MINUTES:-55}" --init "$work/tilenet2/last.pt" \
    --out "$work/tilenet3" > "$work/tilenet3.log" &
pids=($!)
OMP_NUM_THREADS=1 $py -m models.train_reader --data "$shared/data/real/riichi-jp/train@4" \
    --data "$shared/data/real/chinese/train@2" --data "$work/stills/s1@2" --data "$work/clip-stills" \
    --lr 1e-3 --minutes "${VIDEO_MINUTES:-55}" --init "$work/reader/last.pt" --out "$work/reader3" \
    > "$work/reader3.log" &
pids+=($!)
wait_all 3 "${pids[@]}"

echo "4/4 int8 quantization" >&2
quantize_both "$work/tilenet3/tiles.onnx" "$work/reader3/reader.onnx" "$work/stills/s1" "$work/clip-stills"
echo "done: evaluate $work/tiles.onnx and $work/reader.onnx (models/README.md, Metrics)" >&2
