# table.awk - the compact table run.sh prints, from results.awk's TSV (FS is a tab); rows run on
# T threads show their kernel set as "isa@Tt" and their speed-up over one thread (scaling.awk
# sums them up).
function human(ns) {
    if (ns >= 1e9) return sprintf("%.2f s", ns / 1e9)
    if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
    if (ns >= 1e3) return sprintf("%.2f us", ns / 1e3)
    return sprintf("%.1f ns", ns)
}
function ratio(x) { return (x == "" || x == "-") ? "-" : sprintf("%.3f", x) }
BEGIN { FS = "\t" }
/^#/ { ctx[substr($1, 2)] = $2; next }
!header {
    printf "tensormove %s on %s; kernel sets: %s; %s\n", ctx["tensormove_version"], ctx["cpu_model"],
        ctx["tensormove_isas"], ctx["date"]
    printf "GB/s = (bytes read + bytes written) / time; x memcpy = memcpy of the output bytes, timed in alternating slices (1.0 = as fast);\n"
    printf "x best = the same with the faster of memcpy and a streaming copy of those bytes; \"isa@Tt\" rows ran\n"
    printf "on T threads, timed by the wall clock against the copies split over the same T threads;\n"
    printf "x pieces / x loop = the same against memcpy of each contiguous piece / a plain element loop\n"
    printf "(bench/obvious.h; one thread); x bound (gathers) = the same against one load from each line\n"
    printf "the gather's slices cover (bench/gather_bound.h; one thread)\n\n"
    printf "%-15s %-32s %-14s %9s %9s %9s %9s %9s %9s %11s %11s %8s  %s\n", "operator", "case", "ISA", "GB/s", "x memcpy",
        "x best", "x pieces", "x loop", "x bound", "cpu/call", "wall/call", "speed-up", "plan"
    header = 1
}
{
    c = $3 "/" $4
    isa = ($14 > 1) ? $5 "@" $14 "t" : $5
    if ($10 != "") printf "%-15s %-32s %-14s   skipped: %s\n", $2, c, isa, $10
    else printf "%-15s %-32s %-14s %9.2f %9.3f %9s %9s %9s %9s %11s %11s %8s  %s\n", $2, c, isa, $6, $7,
        ratio($13), ratio($16), ratio($17), ratio($18), human($8), human($12), ($15 > 0) ? sprintf("%.2f", $15) : "-", $11
}
