#!/bin/sh
# Runs the 200-run check 5 times (1,000 runs) with both cores kept busy by two spinning shells.
cd "$(dirname "$0")"
sh -c 'while :; do :; done' & B1=$!
sh -c 'while :; do :; done' & B2=$!
for i in 1 2 3 4 5; do timeout 120 ./lockstep 200 2>&1; done
timeout 120 ./lockstep 200 unhooked 2>&1 | head -2
kill $B1 $B2
