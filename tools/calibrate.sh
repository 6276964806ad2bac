#!/bin/sh
# calibrate.sh: refit the training model's global constants (docs/explanation/calibration.md).
# Rebuilds clustersim once per point of a grid, with the constants given as
# -D macros (models/kernel/roofline.c), runs `clustersim validate` on the training
# rows and prints median and worst |error| for each point, best first.
# Slow (a build per point): run by hand when the model changes.
set -eu
cd "$(dirname "$0")/.."
gemm=${GEMM:-"0.76 0.78 0.79 0.8 0.82"}
attn=${ATTN:-"0.3 0.35 0.375 0.4 0.45 0.5"}
hbm=${HBM:-"0.8 0.85 0.9"}
launch=${LAUNCH:-"10e-6"}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for g in $gemm; do for a in $attn; do for h in $hbm; do for l in $launch; do
	make -s BUILD=build-calibrate CFLAGS="-DGEMM_FACTOR=$g -DATTN_FACTOR=$a -DHBM_EFF=$h -DLAUNCH_S=$l" \
		build-calibrate/clustersim >/dev/null
	build-calibrate/clustersim validate --format csv 2>/dev/null | tail -n +2 | grep -v -e '^nccl' -e '^trtllm' -e '^nim' |
		awk -F, -v k="$g $a $h $l" '
			{ e = $5 < 0 ? -$5 : $5; v[NR] = e; if (e > w) w = e; if (e > 25) over++ }
			END {
				n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
				printf "%d %.2f %.2f  gemm attention hbm kernel_s = %s\n", over + 0, med, w, k
			}' >>"$out"
done; done; done; done
echo "rows_beyond_25% median_pct worst_pct  constants"
sort -n -k1,1 -k2,2 "$out"
