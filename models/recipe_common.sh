# Shell functions both training recipes share (sourced by models/recipe.sh and recipe_video.sh;
# they set $work, $py and $shared first).

# waits for the background jobs given; fails (one line) if any of them did (a bare `wait` always
# returns 0, so a failed step would go unnoticed until a later one finds its output missing)
wait_all() {
    local step=$1 rc=0 pid
    shift
    for pid in "$@"; do wait "$pid" || rc=$?; done
    if [ "$rc" -ne 0 ]; then echo "$(basename "$0" .sh): step $step failed (exit $rc); see its logs in $work" >&2; fi
    return "$rc"
}

# int8 quantization of a detector and a reader into $work/tiles.onnx and $work/reader.onnx,
# calibrated on the photos and the stills folders given
quantize_both() {
    local tiles=$1 reader=$2 calib=(--data "$shared/data/real/riichi-jp/train" --data "$shared/data/real/chinese/train")
    shift 2
    for folder in "$@"; do calib+=(--data "$folder"); done
    $py -m models.quantize "$tiles" "$work/tiles.onnx" "${calib[@]}" --count 96
    $py -m models.quantize "$reader" "$work/reader.onnx" --reader "${calib[@]}" --count 48
}
