#!/usr/bin/env bash
# Takes the app's screenshots (docs/screenshots/*.png): the real binary in a real window under
# Xvfb, one run of the app per screen, each with a config directory seeded from
# docs/screenshots/seed/ and the pictures of a rendered table (`octoref synth`, seed 8) played as
# a folder of images. Screens that need a user's hand (Calibrate, Teach, Otto) are driven with
# xdotool: clicks at screen points and typed file names.
#
#   bash docs/screenshots/take.sh            # uses target/debug/octoref (cargo build first)
#   BIN=target/release/octoref bash docs/screenshots/take.sh
#   ONLY="otto teach" bash ...               # only these runs (names as in the list at the end)
#
# Needs xvfb-run, imagemagick's `import` and `convert`, and xdotool (all in `make deps`); optipng
# (also in `make deps`), when present, shrinks the pictures losslessly.
#
# The clicks are screen points of the app's first window (1360x860, the screen's size, so the
# window lies at 0,0 with no window manager) in light colours and normal type. When a screen's
# layout changes, look at the pictures and move the points (the comments name the widget).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/debug/octoref}
OUT=docs/screenshots
SEED=$OUT/seed
SIZE=1360x860
WAIT=${WAIT:-8}
ONLY=${ONLY:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/octoref-shots.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for tool in xvfb-run import xdotool; do
    command -v "$tool" >/dev/null || { echo "take.sh: $tool is missing (make deps)" >&2; exit 2; }
done

# The table: a board picture, the empty set-up, a gold bar alone for Teach, the profile
# `octoref calibrate` makes of them, and the camera: a folder holding the 12th game frame for a
# minute (a table at rest, and a source that does not end while a screen is being driven).
# Seed 8: a camera without lens distortion, which the profile from one board picture (no
# distortion fitted) describes fully.
SCENE=$WORK/scene
SCENE_SEED=${SCENE_SEED:-8}
"$BIN" synth --seed "$SCENE_SEED" --out "$SCENE" --players 3 --frames 12 --resolution 1280x720 \
    --alone gold >/dev/null 2>&1
"$BIN" calibrate --board "$SCENE/board.png" --ocean "$SCENE/empty.png" --out "$SCENE/profile.json" \
    >/dev/null 2>&1
mkdir "$WORK/frames"
for i in $(seq 0 119); do
    cp "$SCENE/frame_011.jpg" "$WORK/frames/$(printf 'frame_%03d.jpg' "$i")"
done

# What runs inside the X session: the app, then the ACTIONS (bash) with these helpers.
cat > "$WORK/session.sh" <<'SESSION'
set -euo pipefail
"$@" >"$LOG" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
win=
for _ in $(seq 1 150); do
    kill -0 $pid 2>/dev/null || break
    win=$(xdotool search --name '^octoref' 2>/dev/null | head -n 1 || true)
    [ -n "$win" ] && break
    sleep 0.2
done
[ -n "$win" ] || { echo "take.sh: no octoref window (log: $LOG)" >&2; cat "$LOG" >&2; exit 1; }
sleep "$WAIT_S"
# Without a window manager nothing gives the window the keyboard.
xdotool windowfocus "$win"
snap() { import -window root "$OUT/$1.png"; echo "wrote $OUT/$1.png"; }
# click X Y [SECONDS to wait after]
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-1.5}"; }
# type_in X Y TEXT: click a text field and type into it
type_in() { click "$1" "$2" 0.7; xdotool type --delay 40 "$3"; sleep 0.7; }
eval "$ACTIONS"
SESSION

# run NAME PANEL THEME LARGE WITH_GAME ACTIONS [app flags...]
run() {
    local name=$1 panel=$2 theme=$3 large=$4 with_game=$5 actions=$6
    shift 6
    if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then
        return 0
    fi
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
    # xvfb-run -a can lose the race for a display number to another X server starting at the
    # same moment: then the app finds no X server, and the run is tried again.
    local attempt
    for attempt in 1 2 3; do
        if OCTOREF_CONFIG_DIR="$cfg" WAIT_S=${WAIT_S:-$WAIT} OUT="$OUT" ACTIONS="$actions" \
            LOG="$WORK/$name.log" \
            xvfb-run -a -s "-screen 0 ${SIZE}x24" bash "$WORK/session.sh" "$BIN" "$@"; then
            return 0
        fi
        echo "take.sh: $name: attempt $attempt failed" >&2
    done
    return 1
}

FRAMES=(--images "$WORK/frames")
CAL=(--calibration "$SCENE/profile.json")

run setup setup light false no 'snap setup' "${FRAMES[@]}"
# A game in progress (seed/crash-octopus.json) beside the camera's table, refereed: taken once
# the still table's rulings have settled (about 10 analysed frames) and before the live
# referee's view check, which on these synthetic tables soon says, wrongly, that the view moved
# (two checks 15 analysed frames apart; the demo's table does not do this).
WAIT_S=${GAME_WAIT:-12} run game game light false yes 'snap game' "${FRAMES[@]}" "${CAL[@]}"
WAIT_S=${GAME_WAIT:-12} run game_dark_large game dark true yes 'snap game_dark_large' "${FRAMES[@]}" "${CAL[@]}"
run octocube octocube light false no 'snap octocube' "${FRAMES[@]}"
run sources sources light false no 'snap sources' "${FRAMES[@]}"
run help help light false no 'snap help'

# Otto: square [5, 2] (50-point squares from 8,108), an Arm tile joining Otto from the south:
# with the suckers on the left it is refused (the rule it breaks), on the right allowed (points).
run otto otto light false no '
    click 283 233
    snap otto_refused
    click 1152 189
    snap otto
' "${FRAMES[@]}"

# Calibrate: step 2, the board picture loaded and its markers found, solved; step 3, the empty
# table loaded and its string, ocean and beads drawn.
run calibrate calibrate light false no "
    click 482 55
    type_in 280 156 '$SCENE/board.png'
    click 519 156 8
    click 34 672 8
    snap calibrate
    click 155 712
    type_in 325 196 '$SCENE/empty.png'
    click 585 196 10
    snap calibrate_table
" "${FRAMES[@]}"

# Teach: the gold bar (chosen in the list on the left) alone in the ocean, loaded, learnt
# against the profile, and saved into it.
run teach teach light false no "
    click 40 650
    type_in 376 220 '$SCENE/alone_gold.jpg'
    click 591 220
    click 176 276 12
    click 227 396 3
    snap teach
" "${FRAMES[@]}" "${CAL[@]}"

# The built-in demo with the live referee, given time to render and rule (turn 6; whether its
# rulings have settled by then depends on how fast the machine analyses).
WAIT_S=40 run demo game light false no 'snap demo' --demo

# They are committed: a picture over 300 KB (the ones showing the camera's table) is cut down to
# 256 colours (dithered), then optipng, when present, packs them all losslessly.
for f in "$OUT"/*.png; do
    if [ "$(stat -c %s "$f")" -gt 300000 ]; then
        convert "$f" -dither FloydSteinberg -colors 256 "PNG8:$f"
    fi
done
if command -v optipng >/dev/null; then
    optipng -quiet -o2 "$OUT"/*.png
fi
