// garble_aes garbles EMP-toolkit's AES-128 circuit (Bristol format,
// AES-non-expanded.txt: 6,800 AND gates) with EMP's half-gates garbler
// (HalfGateGen) into an IO channel that drops the tables, as emp-tool's
// own test/test_garble.cpp does for its "pure AES garbling speed", and
// reports AND gates per CPU-second of the process and per wall second.
// It is the anchor of issue 38's "referee garbling >= 1x EMP's
// AES-circuit rate" (docs/mpc.md); see README.md here to build and run it.
// With "and" for CIRCUIT it garbles instead 65,536 AND gates a round,
// each reading two wires among the 1,024 before it, as
// BenchmarkSchemeAND's circuit does: emp's AND-gate loop alone.
//
//	garble_aes CIRCUIT|and [GARBLINGS [ROUNDS]]
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "emp-tool/emp-tool.h"
using namespace emp;

// Drop drops the tables (IOChannel::counter counts their bytes).
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

// andGates garbles n AND gates of a random circuit on window recent
// wires, gates times, and reports like main.
static void andGates(int garblings, int rounds) {
	const int n = 1 << 16, window = 1024, in = 256;
	std::vector<block> w(in + n);
	std::vector<int> a(n), b(n);
	PRG prg;
	prg.random_block(w.data(), in);
	uint32_t x = 12345;
	for (int i = 0; i < n; ++i) {
		const int out = in + i, span = out < window ? out : window;
		x = x * 1664525u + 1013904223u;
		a[i] = out - 1 - int(x >> 8) % span;
		x = x * 1664525u + 1013904223u;
		b[i] = out - 1 - int(x >> 8) % span;
	}
	Drop* io = new Drop();
	backend = new HalfGateGen(io);
	for (int r = 0; r < rounds; ++r) {
		const uint64_t bytes0 = io->counter;
		const double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
		for (int g = 0; g < garblings; ++g)
			for (int i = 0; i < n; ++i) backend->and_gate(&w[in + i], &w[a[i]], &w[b[i]]);
		const double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0, wall = seconds(CLOCK_MONOTONIC) - wall0;
		const double ands = double(n) * garblings;
		std::printf("emp-and-garble ands=%d garblings=%d cpu-s=%.4f wall-s=%.4f "
		            "M-AND/cpu-s=%.2f M-AND/s=%.2f table-bytes/AND=%.1f\n",
		            n, garblings, cpu, wall, ands / cpu / 1e6, ands / wall / 1e6,
		            double(io->counter - bytes0) / ands);
	}
	delete backend;
	delete io;
}

int main(int argc, char** argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s CIRCUIT [GARBLINGS [ROUNDS]]\n", argv[0]);
		return 2;
	}
	const int n = argc > 2 ? std::atoi(argv[2]) : 2000;
	const int rounds = argc > 3 ? std::atoi(argv[3]) : 1;
	if (std::string(argv[1]) == "and") {
		andGates(n, rounds);
		return 0;
	}
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
