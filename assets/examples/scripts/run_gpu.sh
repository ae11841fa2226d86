#!/bin/sh
# Runs the example on one GPU under Legate with cuPyNumeric swapped in.
set -eu
cd "$(dirname "$0")/.."
legate --gpus 1 run_simulation.py
