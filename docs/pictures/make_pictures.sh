#!/bin/sh
# Regenerates the README's pictures from the project's own samples in corpus/
# (no game data): run from the checkout after building (WALKMESH= another binary, OUT= another folder).
set -eu
W=${WALKMESH:-build/tools/walkmesh}
OUT=${OUT:-docs/pictures}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# KotOR: the courtyard as an area walkmesh, and the ramp as a placeable with two use hooks
"$W" convert corpus/courtyard.obj "$TMP/courtyard.wok" --quiet
"$W" render "$TMP/courtyard.wok" -o "$OUT/courtyard-wok.svg" --force
"$W" convert corpus/ramp.obj "$TMP/ramp.pwk" --hook1 -1,2,0 --hook2 13,2,0 --quiet
"$W" render "$TMP/ramp.pwk" -o "$OUT/ramp-pwk-iso.svg" --view iso --force
# WoW: the courtyard as WMO collision (root + groups), seen from the south-west
"$W" convert corpus/courtyard.obj "$TMP/courtyard.wmo" --quiet
"$W" render "$TMP/courtyard.wmo" -o "$OUT/courtyard-wmo-iso.svg" --view iso --force
# NWN2: the courtyard as a TRN (on an empty 2 x 2 tile base made by blank_trn.py), baked into a
# TRX, with the route its path tables give from the south-west corner to the north-east one
# and the shortest route between the same points
python3 docs/pictures/blank_trn.py "$TMP/blank.trn" 2 2
"$W" convert corpus/courtyard.obj "$TMP/courtyard.trn" --base "$TMP/blank.trn" --quiet
"$W" bake "$TMP/courtyard.trn" -o "$TMP/courtyard.trx" --quiet
"$W" render "$TMP/courtyard.trx" -o "$OUT/courtyard-trx-path.svg" --path 1,1 9.5,9.5 --force
