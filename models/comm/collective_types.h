/*
 * collective_types: the records of collectives every module of models/comm
 * shares: the ops, algorithms, fidelities and protocols (their names are
 * defined in collective.c), a group of ranks, and what one collective costs.
 *
 * Records only: coll_plan (each algorithm's phases) and collective (their
 * cost) both read these, so neither includes the other's header for them.
 * It includes no other module of the folder.
 */
#ifndef CLUSTERSIM_MODELS_COLLECTIVE_TYPES_H
#define CLUSTERSIM_MODELS_COLLECTIVE_TYPES_H

/* The collectives, as nccl-tests names them (collective_op_names). */
enum collective_op {
	COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL,
	COLL_BROADCAST, COLL_SEND_RECV, COLL_OP_COUNT
};
extern const char *const collective_op_names[];

/* How a collective is carried out; ALGO_AUTO lets collective_analytic pick. */
enum collective_algo { ALGO_AUTO, ALGO_RING, ALGO_TREE, ALGO_HIERARCHICAL, ALGO_NVLS, ALGO_DIRECT, ALGO_COUNT };
extern const char *const collective_algo_names[];

/* Which form answers: the alpha-beta cost or flows on the engine. */
enum collective_fidelity { FIDELITY_ANALYTIC, FIDELITY_FLOWS };
extern const char *const collective_fidelity_names[];

/* NCCL's protocols: LL (low latency, a quarter of the bandwidth), Simple. */
enum coll_protocol { PROTO_LL, PROTO_SIMPLE, PROTO_COUNT };
extern const char *const collective_protocol_names[];

/* Who takes part: n ranks, `nodes` nodes, `per_node` ranks on each. */
struct collective_group {
	int n;
	int nodes;
	int per_node;
};

/* The most phases one collective has (hierarchical all-reduce: 3). */
#define COLL_MAX_PHASES 3

/* What one collective costs with one algorithm and protocol, phase by phase
 * in the order of its coll_plan. */
struct coll_cost {
	enum collective_algo algo;     /* never ALGO_AUTO */
	enum coll_protocol proto;
	double time_s;
	double latency_s;              /* fixed part, all phases */
	double transfer_s;             /* bandwidth part, all phases */
	int phases;
	double phase_latency_s[COLL_MAX_PHASES];
	double phase_transfer_s[COLL_MAX_PHASES];
	double wire_bytes_per_rank;    /* bytes one rank sends, all phases (the plan's sum) */
};

#endif
