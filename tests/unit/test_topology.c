/* Topology paths, rails, leaves and storage; rank placement. */
#include "testutil.h"

#include <string.h>
#include <unistd.h>

#include "models/hw/placement.h"
#include "models/scenario/scenario.h"
#include "models/hw/topology.h"
#include "sim/time.h"

#include "catalog_fixture.h"

static void test_rails_and_leaves(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct topology t;
	cluster_of("{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 70}", &c);
	topology_init(&t, &c);
	/* 32 x 100G EFA ports behind 8 GPUs: 8 rails of 4 ports (50 GB/s) */
	assert_int_equal(t.rails, 8);
	assert_close(t.rail.bw_bytes_per_s, 50e9, 1e-12);
	assert_int_equal(t.leaf_groups, 3);  /* 32 nodes per leaf */
	cluster_of("{\"preset\": \"gcp-a3-highgpu-8g\"}", &c);
	topology_init(&t, &c);
	/* 4 x 200G TCPX for 8 GPUs: two GPUs per rail */
	assert_int_equal(t.rails, 4);
	assert_int_equal(topology_rail(&t, 0), 0);
	assert_int_equal(topology_rail(&t, 1), 0);
	assert_int_equal(topology_rail(&t, 7), 3);
}

static void test_paths(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct topology t;
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct topology_net tn;
	flow_link p[FLOW_PATH_MAX];
	double lat;

	cluster_of("{\"preset\": \"dgx-h100\", \"nodes\": 4, \"topology\": {\"kind\": \"rail\", \"nodes_per_leaf\": 2}}", &c);
	topology_init(&t, &c);
	topology_net_build(&tn, &t, fn);
	/* same node: GPU port up, GPU port down */
	assert_int_equal(topology_net_path(&tn, 0, 5, p, &lat), 2);
	assert_int_equal(p[0], tn.gpu_up[0]);
	assert_int_equal(p[1], tn.gpu_down[5]);
	/* same leaf, same rail: rail up, rail down */
	assert_int_equal(topology_net_path(&tn, 3, 8 + 3, p, &lat), 2);
	/* other leaf: through the rail's leaf uplinks */
	assert_int_equal(topology_net_path(&tn, 3, 16 + 3, p, &lat), 4);
	/* other rail at the destination: arrive on rail 3, cross NVLink (PXN) */
	assert_int_equal(topology_net_path(&tn, 3, 8 + 6, p, &lat), 4);
	assert_int_equal(p[2], tn.gpu_up[8 + 3]);
	assert_int_equal(p[3], tn.gpu_down[8 + 6]);
	assert_close(lat, t.rail.latency_s + t.su.latency_s, 1e-12);
	topology_net_release(&tn);
	flow_free(fn);
	engine_free(e);
}

/* Nodes writing a checkpoint share the tier's aggregate rate. */
static void test_storage_aggregate(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct topology t;
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct topology_net tn;
	flow_link p[FLOW_PATH_MAX];
	cluster_of("{\"preset\": \"dgx-h100\", \"nodes\": 10, \"storage\": [{\"tier\": \"pfs\","
		   " \"kind\": \"parallel-fs\", \"aggregate_GBps\": 100, \"write_GBps_per_node\": 40,"
		   " \"read_GBps_per_node\": 40}]}", &c);
	topology_init(&t, &c);
	topology_net_build(&tn, &t, fn);
	flow_batch_begin(fn);
	flow_id f[10];
	for (int n = 0; n < 10; n++) {
		int len = topology_net_storage_path(&tn, n, 0, p);
		f[n] = flow_start(fn, p, len, 100e9, 1, 0, NULL, 0);
	}
	flow_batch_end(fn);
	/* 10 nodes x 40 GB/s ports, 100 GB/s tier: 10 GB/s each */
	for (int n = 0; n < 10; n++)
		assert_close(flow_rate(fn, f[n]), 10e9, 1e-12);
	engine_run(e, SIM_TIME_MAX);
	assert_close(sim_time_to_s(engine_now(e)), 10.0, 1e-6);  /* 1 TB at 100 GB/s */
	topology_net_release(&tn);
	flow_free(fn);
	engine_free(e);
}

static void test_placement_default_order(void **state)
{
	(void)state;
	struct placement p;
	struct cs_error err;
	int c[DIM_COUNT];
	long g[8];
	assert_int_equal(placement_init(&p, 8, 1, 4, 2, NULL, &err), 0);
	/* tensor-parallel group of rank (pp 1, dp 1): 8 consecutive GPUs, one node */
	c[DIM_TP] = 0; c[DIM_CP] = 0; c[DIM_PP] = 1; c[DIM_DP] = 1;
	placement_group(&p, DIM_TP, c, g);
	for (int i = 0; i < 8; i++)
		assert_int_equal(g[i], 8 * 1 + 32 * 1 + i);
	/* pipeline group: stride 8 */
	placement_group(&p, DIM_PP, c, g);
	for (int i = 0; i < 4; i++)
		assert_int_equal(g[i], 32 + 8 * i);
	/* data-parallel group: stride 32 */
	placement_group(&p, DIM_DP, c, g);
	assert_int_equal(g[0], 8);
	assert_int_equal(g[1], 40);
	/* coordinates round-trip */
	for (long x = 0; x < 64; x++) {
		placement_coords(&p, x, c);
		assert_int_equal(placement_gpu(&p, c), x);
	}
}

static void test_placement_other_order(void **state)
{
	(void)state;
	struct placement p;
	struct cs_error err;
	int c[DIM_COUNT] = { 0, 0, 0, 0 };
	long g[4];
	assert_int_equal(placement_init(&p, 2, 1, 2, 4, "tp-dp-pp-cp", &err), 0);
	placement_group(&p, DIM_DP, c, g);
	for (int i = 0; i < 4; i++)
		assert_int_equal(g[i], 2 * i);  /* data parallel right after tp */
	assert_int_equal(placement_init(&p, 2, 1, 2, 4, "tp-dp-pp", &err), -1);
	assert_int_equal(placement_init(&p, 2, 1, 2, 4, "tp-dp-pp-pp", &err), -1);
	assert_non_null(strstr(err.msg, "must name tp, cp, pp and dp once each"));
}

/* The reference count placement_nodes replaced (layer.c's shape_of before):
 * list the box's GPUs, sort their nodes and count where they change. */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static long nodes_by_sorting(const struct placement *p, const int count[DIM_COUNT], int gpus_per_node)
{
	long n = (long)count[0] * count[1] * count[2] * count[3], k = 0;
	int *node = malloc((size_t)n * sizeof *node);
	int c[DIM_COUNT];
	assert_non_null(node);
	for (c[DIM_TP] = 0; c[DIM_TP] < count[DIM_TP]; c[DIM_TP]++)
		for (c[DIM_CP] = 0; c[DIM_CP] < count[DIM_CP]; c[DIM_CP]++)
			for (c[DIM_PP] = 0; c[DIM_PP] < count[DIM_PP]; c[DIM_PP]++)
				for (c[DIM_DP] = 0; c[DIM_DP] < count[DIM_DP]; c[DIM_DP]++)
					node[k++] = (int)(placement_gpu(p, c) / gpus_per_node);
	qsort(node, (size_t)n, sizeof *node, cmp_int);
	long distinct = 1;
	for (long i = 1; i < n; i++)
		distinct += node[i] != node[i - 1];
	free(node);
	return distinct;
}

/* placement_nodes (arithmetic on the strides) counts the same nodes as
 * sorting the listed GPUs, over random plans (uneven sizes such as 3, 5, 6
 * and 7 included), every rank order, random sub-boxes (one to four
 * dimensions, prefixes of each as expert groups take) and node sizes that
 * do and do not divide the strides (1 to 72 GPUs). */
static void test_placement_nodes_match_sorting(void **state)
{
	(void)state;
	static const char *const orders[] = { "tp-cp-pp-dp", "tp-dp-pp-cp", "dp-tp-cp-pp", "pp-dp-cp-tp",
					      "cp-tp-dp-pp", "tp-pp-cp-dp", "dp-pp-tp-cp", "cp-dp-pp-tp" };
	static const int per_node[] = { 1, 2, 3, 4, 6, 8, 12, 16, 72 };
	uint64_t x = 12345;
	struct cs_error err;
	for (int trial = 0; trial < 4000; trial++) {
		int size[DIM_COUNT], count[DIM_COUNT];
		for (int d = 0; d < DIM_COUNT; d++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			size[d] = 1 + (int)((x >> 33) % (d == DIM_DP ? 40 : 9));
			x = x * 6364136223846793005u + 1442695040888963407u;
			/* half the time the whole dimension, else a random prefix */
			count[d] = (x >> 40) % 2 ? size[d] : 1 + (int)((x >> 33) % (uint64_t)size[d]);
		}
		x = x * 6364136223846793005u + 1442695040888963407u;
		const char *order = orders[(x >> 33) % 8];
		int g = per_node[(x >> 45) % 9];
		struct placement p;
		assert_int_equal(placement_init(&p, size[DIM_TP], size[DIM_CP], size[DIM_PP], size[DIM_DP], order, &err), 0);
		long want = nodes_by_sorting(&p, count, g);
		long got = placement_nodes(&p, count, g);
		if (got != want)
			print_error("order %s sizes %d %d %d %d counts %d %d %d %d, %d per node: %ld, sorting %ld\n", order,
				    size[0], size[1], size[2], size[3], count[0], count[1], count[2], count[3], g, got, want);
		assert_int_equal(got, want);
	}
	/* 64K GPUs: 8,192 data-parallel replicas of tp 8, on 8-GPU nodes */
	struct placement big;
	assert_int_equal(placement_init(&big, 8, 1, 1, 8192, NULL, &err), 0);
	assert_int_equal(placement_nodes(&big, (int[DIM_COUNT]){ 1, 1, 1, 8192 }, 8), 8192);
	assert_int_equal(placement_nodes(&big, (int[DIM_COUNT]){ 8, 1, 1, 8192 }, 8), 8192);
	assert_int_equal(placement_nodes(&big, (int[DIM_COUNT]){ 8, 1, 1, 1 }, 8), 1);
	assert_int_equal(placement_nodes(&big, (int[DIM_COUNT]){ 1, 1, 1, 1 }, 8), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rails_and_leaves),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_storage_aggregate),
		cmocka_unit_test(test_placement_default_order),
		cmocka_unit_test(test_placement_other_order),
		cmocka_unit_test(test_placement_nodes_match_sorting),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
