#!/usr/bin/env bash
# A venue's own detector and reader: the committed models fine-tuned on the venue's tile set
# (models/README.md, "A venue's tile set"), one command:
#
#   bash models/recipe_venue.sh WORKDIR TILESET
#
# TILESET is the set's face art (one picture a face, named by tile code, as `mjmon synth` takes it).
# Run from the repository root with the train and test extras installed (torch; jansou plays the
# game). It plays a jansou hanchan no evaluation set plays (seed VENUE_SEED), renders six one-kyoku
# clips of it with the art (four at the low camera, where faces are hardest, one tilted, one
# overhead; one at 960x540), cuts their keyframes into labelled stills, draws 360 still tables of
# the same game with the art, fine-tunes the detector and the reader from models/tiles.onnx and models/reader.onnx side
# by side (one core each, VENUE_MINUTES each) and quantizes both into WORKDIR/tiles.onnx and
# WORKDIR/reader.onnx. Then: mjmon analyze VIDEO --model WORKDIR/tiles.onnx --reader WORKDIR/reader.onnx
# (a tile-set reference, if wanted, must be enrolled with that reader: mjmon enroll --reader).
# About 45 minutes on two cores.
set -euo pipefail
usage="usage: bash models/recipe_venue.sh WORKDIR TILESET"
work=${1:?$usage}
art=${2:?$usage}
py=${PYTHON:-python}
seed=${VENUE_SEED:-9100}
minutes=${VENUE_MINUTES:-25}
[ -d "$art" ] || { echo "recipe_venue: no such tileset directory: $art" >&2; exit 2; }
for f in models/tiles.onnx models/reader.onnx; do  # (found only from the repository root)
    [ -f "$f" ] || { echo "recipe_venue: no $f here: run from the repository root" >&2; exit 2; }
done
mkdir -p "$work/clips"

. "$(dirname "$0")/recipe_common.sh"  # wait_all

echo "1/5 the game (jansou hanchan $seed)" >&2
$py -m tracker.logs.jansou_games --seed "$seed" --out "$work/venue.mjai.jsonl" > "$work/game.log"

echo "2/5 six clips and 360 still tables with the art (two workers)" >&2
clip() {  # CAMERA KYOKU NAME [--size WxH]
    local camera=$1 kyoku=$2 name=$3
    shift 3
    OMP_NUM_THREADS=1 $py -m tracker.cli synth "$work/venue.mjai.jsonl" --tileset "$art" --camera "$camera" \
        --kyoku "$kyoku" --seed $((seed + 1 + kyoku)) --pace 3 --fps 30 "$@" --out "$work/clips/$name" \
        > "$work/clips-$name.log" 2>&1
}
(clip low 0 low-0 && clip tilted 2 tilted-2 && clip low 4 low-4-540 --size 960x540) &
pids=($!)
(clip low 1 low-1 && clip overhead 3 overhead-3 && clip low 5 low-5) &
pids+=($!)
still_tables() {  # the same game's moments: never an evaluation game's (the bundled log is one)
    OMP_NUM_THREADS=1 $py -m tracker.cli stills --count "$1" --tileset "$art" --log "$work/venue.mjai.jsonl" \
        --seed "$2" --out "$work/$3"
}
(still_tables 300 778 S1 && still_tables 60 777 S2) > "$work/stills.log" 2>&1 &
pids+=($!)
wait_all 2 "${pids[@]}"

echo "3/5 the clips' keyframes as labelled stills" >&2
$py -m datasets.clip_stills "$work"/clips/*/ --out "$work/clipstills" --every 1 > "$work/clipstills.log" 2>&1

echo "4/5 detector and reader fine-tuned side by side from the committed files" >&2
data=(--data "$work/clipstills" --data "$work/S1" --data "$work/S2")
OMP_NUM_THREADS=1 $py -m models.train "${data[@]}" --art "$art" --paste 0.3 --lr 5e-4 --batch 16 \
    --minutes "$minutes" --init models/tiles.onnx --out "$work/tilenet" > "$work/tilenet.log" &
pids=($!)
OMP_NUM_THREADS=1 $py -m models.train_reader "${data[@]}" --lr 1e-3 --minutes "$minutes" \
    --init models/reader.onnx --out "$work/reader" > "$work/reader.log" &
pids+=($!)
wait_all 4 "${pids[@]}"

echo "5/5 int8 quantization" >&2
calib=(--data "$work/clipstills" --data "$work/S1")
$py -m models.quantize "$work/tilenet/tiles.onnx" "$work/tiles.onnx" "${calib[@]}" --count 96
$py -m models.quantize "$work/reader/reader.onnx" "$work/reader.onnx" --reader "${calib[@]}" --count 48
echo "done: mjmon analyze VIDEO --model $work/tiles.onnx --reader $work/reader.onnx" >&2
