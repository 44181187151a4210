// garble_aes garbles EMP-toolkit's AES-128 circuit (Bristol format,
// AES-non-expanded.txt: 6,800 AND gates) with EMP's half-gates garbler
// (HalfGateGen) into an IO channel that drops the tables, as emp-tool's
// own test/test_garble.cpp does for its "pure AES garbling speed", and
// reports AND gates per CPU-second of the process and per wall second.
// It is the anchor of issue 38's "referee garbling >= 1x EMP's
// AES-circuit rate" (docs/mpc.md); see README.md here to build and run it.
//
//	garble_aes CIRCUIT [GARBLINGS [ROUNDS]]
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>

#include "emp-tool/emp-tool.h"
using namespace emp;

// Drop counts the bytes of the tables and drops them.
class Drop : public IOChannel {
public:
	void send_data_internal(const void*, int64_t) override {}
	void recv_data_internal(void*, int64_t) override {}
};

static double seconds(clockid_t id) {
	timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s CIRCUIT [GARBLINGS [ROUNDS]]\n", argv[0]);
		return 2;
	}
	const int n = argc > 2 ? std::atoi(argv[2]) : 2000;
	const int rounds = argc > 3 ? std::atoi(argv[3]) : 1;
	BristolFormat cf(argv[1]);
	int nand = 0;
	for (int i = 0; i < cf.num_gate; ++i)
		if (cf.gates[4 * i + 3] == AND_GATE) nand++;

	Bit* a = new Bit[cf.n1];
	Bit* b = new Bit[cf.n2];
	Bit* c = new Bit[cf.n3];
	PRG prg;
	prg.random_block(reinterpret_cast<block*>(a), cf.n1);
	prg.random_block(reinterpret_cast<block*>(b), cf.n2);

	Drop* io = new Drop();
	backend = new HalfGateGen(io);
	for (int i = 0; i < 50; ++i) cf.compute(c, a, b);  // warm up
	for (int r = 0; r < rounds; ++r) {
		const uint64_t bytes0 = io->counter;
		const double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
		for (int i = 0; i < n; ++i) cf.compute(c, a, b);
		const double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0, wall = seconds(CLOCK_MONOTONIC) - wall0;
		const double ands = double(nand) * n;
		std::printf("emp-aes-garble ands=%d garblings=%d cpu-s=%.4f wall-s=%.4f "
		            "M-AND/cpu-s=%.2f M-AND/s=%.2f table-bytes/AND=%.1f\n",
		            nand, n, cpu, wall, ands / cpu / 1e6, ands / wall / 1e6,
		            double(io->counter - bytes0) / ands);
	}
	delete backend;
	delete io;
	delete[] a;
	delete[] b;
	delete[] c;
	return 0;
}
