#!/usr/bin/env bash
# readme-figures.sh — the README's figures, from the run measured on the H200 that is
# committed under results/ (no GPU needed): the HTML board, kept in docs/board/ with
# its task and episode pages, as headless Chromium renders it (the board and one
# episode), and two of `cuarena plot`'s gnuplot figures.
#
#   make && tools/readme-figures.sh [RUN]
#       writes docs/board/ and docs/img/{board,transcript,fastp,roofline}.png
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN=${1:-$ROOT/examples/runs/2026-11-29-h200-replay}
IMG=$ROOT/docs/img
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
	{ echo "readme-figures: chromium not found (apt-get install chromium)" >&2; exit 3; }
mkdir -p "$IMG"
BOARD=$ROOT/docs/board
rm -rf "$BOARD"
"$ROOT/build/cuarena" board "$RUN" --md "$TMP/board.md" --html "$BOARD" > /dev/null
timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/profile" \
	--hide-scrollbars --screenshot="$IMG/board.png" --window-size=1280,520 \
	"file://$BOARD/index.html" 2> /dev/null
# ReLU's episode: L1-021-relu in runs of catalogue version 1, L1-019-relu since
RELU=$(ls "$BOARD"/episodes/replay-1/L1-[0-9][0-9][0-9]-relu.html | head -1)
timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/profile" \
	--hide-scrollbars --screenshot="$IMG/transcript.png" --window-size=1280,1980 \
	"file://$RELU" 2> /dev/null
"$ROOT/build/cuarena" plot "$RUN" --out "$TMP/plots" > /dev/null
cp "$TMP/plots/fastp.png" "$TMP/plots/roofline.png" "$IMG/"
echo "readme-figures: $BOARD, $IMG/board.png transcript.png fastp.png roofline.png from $RUN"
