// shim.cc - the only C++ in the suite: main() and the Google Benchmark calls behind bench.h.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench.h"
#include "cpu_pin.h"

namespace {
benchmark::State &S(tmvb_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
}  // namespace

extern "C" {

int tmvb_keep_running(tmvb_state *st) { return S(st).KeepRunning() ? 1 : 0; }

void tmvb_set_bytes_per_iteration(tmvb_state *st, uint64_t bytes) {
  S(st).SetBytesProcessed(static_cast<int64_t>(S(st).iterations()) * static_cast<int64_t>(bytes));
}

void tmvb_set_counter(tmvb_state *st, const char *name, double value) {
  S(st).counters[name] = benchmark::Counter(value);
}

void tmvb_set_rate_counter(tmvb_state *st, const char *name, double value) {
  S(st).counters[name] = benchmark::Counter(value, benchmark::Counter::kIsIterationInvariantRate);
}

void tmvb_skip(tmvb_state *st, const char *message) { S(st).SkipWithError(message); }

void tmvb_set_label(tmvb_state *st, const char *label) { S(st).SetLabel(label); }

void tmvb_consume(const void *p) {
  benchmark::DoNotOptimize(p);
  benchmark::ClobberMemory();
}

void tmvb_register(const char *name, tmvb_fn fn, void *arg) {
  benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &st) {
    bench_cpu_pin(1);
    fn(reinterpret_cast<tmvb_state *>(&st), arg);
  });
}

void tmvb_register_realtime(const char *name, tmvb_fn fn, void *arg) {
  benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &st) {
    bench_cpu_pin(0);   // a pool's row: the calling thread is one of its workers
    fn(reinterpret_cast<tmvb_state *>(&st), arg);
  })->UseRealTime();
}

void tmvb_add_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

}  // extern "C"

namespace {
unsigned online_cpus() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}

// --threads=all: 1, 2, ... up to the online CPUs; --threads=1,2: those
// counts. Sorted, without repeats. Empty for a malformed list.
std::vector<unsigned> parse_threads(const char *list) {
  std::set<unsigned> counts;
  if (std::strcmp(list, "all") == 0) {
    for (unsigned t = 1; t <= online_cpus(); ++t) counts.insert(t);
    return {counts.begin(), counts.end()};
  }
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    char *end = nullptr;
    const unsigned long t = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || t < 1 || t > 1024) return {};
    counts.insert(static_cast<unsigned>(t));
  }
  return {counts.begin(), counts.end()};
}
}  // namespace

// Defaults come first so that flags given on the command line override them.
// --tmv_quick (ours) selects the quick subset, --tmv_sweep[=full] the
// generated sweep (sampled, or whole), --tmv_zoo the model zoo;
// --threads=LIST (ours) the suite's thread counts, by default 1 and the
// online CPUs; --tmv_cpu=fastest|none|N (ours) the CPU the one-thread rows
// run on (cpu_pin.h), by default the fastest; --tmv_offset=N (ours) starts
// every buffer N bytes (0-63) past a 64-byte line, as malloc's are.
int main(int argc, char **argv) {
  static char reps[] = "--benchmark_repetitions=3";
  static char aggr[] = "--benchmark_report_aggregates_only=true";
  static const char threads_flag[] = "--threads=";
  static const char cpu_flag[] = "--tmv_cpu=";
  static const char offset_flag[] = "--tmv_offset=";
  const char *cpu = "fastest";
  std::vector<char *> args{argv[0], reps, aggr};
  std::vector<unsigned> threads = parse_threads(("1," + std::to_string(online_cpus())).c_str());
  bench_mode mode = BENCH_SUITE;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tmv_quick") == 0) {
      mode = BENCH_QUICK;
    } else if (std::strcmp(argv[i], "--tmv_sweep") == 0) {
      mode = BENCH_SWEEP;
    } else if (std::strcmp(argv[i], "--tmv_sweep=full") == 0) {
      mode = BENCH_SWEEP_FULL;
    } else if (std::strcmp(argv[i], "--tmv_zoo") == 0) {
      mode = BENCH_ZOO;
    } else if (std::strncmp(argv[i], offset_flag, sizeof offset_flag - 1) == 0) {
      char *end = nullptr;
      const unsigned long offset = std::strtoul(argv[i] + sizeof offset_flag - 1, &end, 10);
      if (end == argv[i] + sizeof offset_flag - 1 || *end != '\0' || offset > 63) {
        std::fprintf(stderr, "tmv-bench: --tmv_offset takes a byte count from 0 to 63, e.g. 16 (malloc's)\n");
        return 1;
      }
      bench_line_offset = static_cast<unsigned>(offset);
    } else if (std::strncmp(argv[i], cpu_flag, sizeof cpu_flag - 1) == 0) {
      cpu = argv[i] + sizeof cpu_flag - 1;
    } else if (std::strncmp(argv[i], threads_flag, sizeof threads_flag - 1) == 0) {
      threads = parse_threads(argv[i] + sizeof threads_flag - 1);
      if (threads.empty()) {
        std::fprintf(stderr, "tmv-bench: --threads takes \"all\" or a list of counts from 1 to 1024, e.g. 1,2\n");
        return 1;
      }
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  char pinned[1024];
  if (bench_cpu_choose(cpu, pinned, sizeof pinned) != 0) {
    std::fprintf(stderr, "tmv-bench: %s\n", pinned);
    return 1;
  }
  tmvb_add_context("cpu_pin", pinned);
  tmvb_add_context("buffer_line_offset", std::to_string(bench_line_offset).c_str());
  bench_register_all(mode, threads.data(), static_cast<int>(threads.size()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  bench_release_all();
  return 0;
}
