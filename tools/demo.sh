#!/bin/sh
# demo.sh CLUSTERSIM: the README's first command, after the build. Compares the
# candidate clusters of the Llama 3 70B pre-training example: time, utilization
# and rental cost of each.
set -eu
bin=${1:-build/clustersim}
cd "$(dirname "$0")/.."
ex=scenarios/examples/llama3-70b-pretrain.json
echo "== clustersim $("$bin" --version | cut -d' ' -f2): Llama 3 70B on 1T tokens ($ex)"
echo
echo "== the candidates: shape, peak FLOP/s, memory, price"
"$bin" run "$ex" --dry-run --format table \
	--columns candidate,gpu,gpus,nic,peak_pflops,hbm_total_gb,usd_per_hour,price_basis
echo
echo "== one training step simulated on each (plan tp/pp/vpp/dp), and the whole run"
"$bin" run "$ex" --format table \
	--columns candidate,status,gpus,tp,pp,vpp,dp,mem_per_gpu_gib,step_time_s,tflops_per_gpu,mfu,frac_bubble,frac_comm_exposed,wall_time_p50_h,cost_usd_p50,usd_per_mtok
# the rows that ask for what is not simulated yet, and why (a table: no CSV
# parsing of reasons that may hold commas)
"$bin" run "$ex" --format table --columns candidate,status,reason 2>/dev/null | awk '
	NR == 1 { header = $0 }
	/ unsupported / { if (!n++) { print "unsupported rows (no wall time or cost given):"; print "  " header }
			  print "  " $0 }'
echo
echo "== how close the model comes to published runs (clustersim validate)"
"$bin" validate --format csv >/dev/null
