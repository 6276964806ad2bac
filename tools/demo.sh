#!/bin/sh
# demo.sh CLUSTERSIM: the README's first command, after the build. Compares the
# candidate clusters of the Llama 3 70B example.
set -eu
bin=${1:-build/clustersim}
cd "$(dirname "$0")/.."
ex=scenarios/examples/llama3-70b-pretrain.json
echo "== clustersim $("$bin" --version | cut -d' ' -f2): $ex"
echo "== candidate shapes, peak FLOP/s, memory and price (clustersim run --dry-run)"
"$bin" run "$ex" --dry-run --format table
