#!/usr/bin/env bash
# Takes the app's screenshots (docs/screenshots/*.png): the real binary in a real window under
# Xvfb, one run per screen, each with a config directory seeded from docs/screenshots/seed/ and
# the picture of a rendered table (`octoref synth`) played as a folder of images.
#
#   bash docs/screenshots/take.sh            # uses target/debug/octoref (cargo build first)
#   BIN=target/release/octoref bash docs/screenshots/take.sh
#
# Needs xvfb-run and imagemagick's `import` (both in `make deps`).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/debug/octoref}
OUT=docs/screenshots
SEED=$OUT/seed
SIZE=${SIZE:-1360x860}
WAIT=${WAIT:-6}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$BIN" synth --seed 3 --out "$WORK/frames" --players 3 --frames 12 --resolution 1280x720 >/dev/null 2>&1
rm -f "$WORK/frames/board.png" "$WORK/frames/empty.png" "$WORK/frames/truth.json"

# shoot NAME PANEL THEME LARGE WITH_GAME [app flags...]
shoot() {
    local name=$1 panel=$2 theme=$3 large=$4 with_game=$5
    shift 5
    local cfg="$WORK/cfg-$name"
    mkdir -p "$cfg/games"
    cp "$SEED/octocube_sheet.json" "$SEED/otto_game.json" "$cfg/"
    local last_game=null
    if [ "$with_game" = yes ]; then
        cp "$SEED/crash-octopus.json" "$cfg/games/crash-octopus.json"
        last_game="\"$cfg/games/crash-octopus.json\""
    fi
    cat > "$cfg/app_state.json" <<JSON
{"theme": "$theme", "large_type": $large, "panel": "$panel", "last_game": $last_game,
 "setup": {"sailors": ["orange", "green", "blue"], "pink_pirate": true, "little_octopus": false,
           "island": true, "beads": "BBBKBBBKBBKBBKKK"}}
JSON
    OCTOREF_CONFIG_DIR="$cfg" WAIT_S=${WAIT_S:-$WAIT} xvfb-run -a -s "-screen 0 ${SIZE}x24" bash -c '
        "$0" "$@" >/dev/null 2>&1 &
        pid=$!
        sleep "$WAIT_S"
        import -window root "'"$OUT/$name.png"'"
        kill $pid
        wait $pid 2>/dev/null || true
    ' "$BIN" "$@"
    echo "wrote $OUT/$name.png"
}

FRAMES=(--images "$WORK/frames")
shoot setup setup light false no "${FRAMES[@]}"
shoot game game light false yes "${FRAMES[@]}"
shoot game_dark_large game dark true yes "${FRAMES[@]}"
shoot octocube octocube light false no "${FRAMES[@]}"
shoot otto otto light false no "${FRAMES[@]}"
shoot sources sources light false no "${FRAMES[@]}"
shoot help help light false no
# The built-in demo with the live referee: given time to render, settle and rule.
WAIT_S=40 shoot demo game light false no --demo
shoot calibrate calibrate light false no --demo
shoot teach teach light false no --calibration calibration/demo.json "${FRAMES[@]}"
