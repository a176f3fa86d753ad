# results.awk - Google Benchmark JSON -> TSV, one row per benchmark (the median when repeated); context as "#" rows.
# Output: name family case size isa gbps x_memcpy time_ns out_bytes error kernels wall_ns x_best_copy threads speedup
#         x_pieces x_loop x_bound
# (time_ns is CPU time per call, wall_ns wall-clock time per call; a row run on
# a pool of T threads is named ".../isa@Tt", reported by Google Benchmark with
# "/real_time" appended as it is timed by the wall clock: name drops that,
# isa is the kernel set alone, threads T (1 for the others), speedup the
# one-thread wall time of the same op / this row's, "-" on one thread;
# x_pieces and x_loop the obvious plans' times / this row's, bench/obvious.h,
# "-" where not measured; x_bound a gather's line loads' time / this row's,
# bench/gather_bound.h, "-" for the other operators)
# Usage: awk -f results.awk results.json
function value(line,    v) {
    v = line
    sub(/^[ \t]*"[^"]*":[ \t]*/, "", v)
    sub(/,[ \t]*$/, "", v)
    if (v ~ /^"/) {
        v = substr(v, 2, length(v) - 2)
        gsub(/\\"/, "\"", v)
        gsub(/\\\\/, "\\", v)
        gsub(/\t/, " ", v)
    }
    return v
}
function key(line,    k) {
    k = line
    sub(/^[ \t]*"/, "", k)
    sub(/".*/, "", k)
    return k
}
function flush(    rank, scale, unit) {
    if (!("run_name" in f)) return
    rank = (f["run_type"] == "aggregate") ? (f["aggregate_name"] == "median" ? 3 : 0) : 1
    if (rank == 0 || (f["run_name"] in best && best[f["run_name"]] > rank)) return
    if (!(f["run_name"] in best)) order[++count] = f["run_name"]
    best[f["run_name"]] = rank
    unit = f["time_unit"]
    scale = unit == "s" ? 1e9 : unit == "ms" ? 1e6 : unit == "us" ? 1e3 : 1
    row[f["run_name"]] = sprintf("%.6g\t%.6g\t%.6g\t%.0f\t%s\t%s\t%.6g\t%s", f["bytes_per_second"] / 1e9,
        f["x_memcpy"], f["cpu_time"] * scale, f["out_bytes"], f["error_occurred"] == "true" ? f["error_message"] : "",
        f["label"], f["real_time"] * scale, f["x_best_copy"])
    speedup[f["run_name"]] = ("speedup" in f) ? sprintf("%.6g", f["speedup"]) : "-"
    obvious[f["run_name"]] = sprintf("\t%s\t%s\t%s", ("x_pieces" in f) ? sprintf("%.6g", f["x_pieces"]) : "-",
        ("x_loop" in f) ? sprintf("%.6g", f["x_loop"]) : "-", ("x_bound" in f) ? sprintf("%.6g", f["x_bound"]) : "-")
}
/"context": \{/ { in_ctx = 1; next }
in_ctx && /^  \}/ { in_ctx = 0 }
in_ctx && /^    "[^"]*": [^\[{]/ { printf "#%s\t%s\n", key($0), value($0) }
/"benchmarks": \[/ { in_b = 1; next }
in_b && /^    \{/ { delete f; next }
in_b && /^    \}/ { flush(); next }
in_b && /^      "/ { f[key($0)] = value($0) }
END {
    for (i = 1; i <= count; ++i) {
        name = order[i]
        sub(/\/real_time$/, "", name)
        threads = 1
        if (match(name, /@[0-9]+t$/)) {
            threads = substr(name, RSTART + 1, RLENGTH - 2)
            isa_end = RSTART - 1
        } else {
            isa_end = length(name)
        }
        tail = sprintf("\t%s\t%s%s", threads, speedup[order[i]], obvious[order[i]])
        n = split(substr(name, 1, isa_end), p, "/")
        if (n >= 4) {
            c = p[2]
            for (j = 3; j <= n - 2; ++j) c = c "/" p[j]
            printf "%s\t%s\t%s\t%s\t%s\t%s%s\n", name, p[1], c, p[n - 1], p[n], row[order[i]], tail
        } else {
            printf "%s\t%s\t-\t-\t-\t%s%s\n", name, name, row[order[i]], tail
        }
    }
}
