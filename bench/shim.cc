// shim.cc - the only C++ in the suite: main() and the Google Benchmark calls behind bench.h.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench.h"

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
    fn(reinterpret_cast<tmvb_state *>(&st), arg);
  });
}

void tmvb_add_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

}  // extern "C"

// Defaults come first so that flags given on the command line override them.
// --tmv_quick (ours) selects the quick subset.
int main(int argc, char **argv) {
  static char reps[] = "--benchmark_repetitions=3";
  static char aggr[] = "--benchmark_report_aggregates_only=true";
  std::vector<char *> args{argv[0], reps, aggr};
  int quick = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tmv_quick") == 0)
      quick = 1;
    else
      args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  bench_register_all(quick);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
