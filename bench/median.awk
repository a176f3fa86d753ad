# median.awk - several runs' results.awk TSVs -> one, each row's numeric columns (GB/s, x memcpy,
# CPU and wall time, x best, speed-up, x pieces, x loop, x bound) the median over the runs that have it unskipped: on a
# shared machine a run's multi-threaded rows stall for whole scheduler ticks while another
# process holds a core, so quote medians of runs taken at different moments.
# Usage: awk -f bench/median.awk run1.tsv run2.tsv run3.tsv
BEGIN {
    FS = OFS = "\t"
    ncols = split("6 7 8 12 13 15 16 17 18", numeric, " ")
}
/^#/ { if (FNR == NR) print; next }
$10 != "" { if (!($1 in row)) { row[$1] = $0; order[++n] = $1 }; next }
{
    if (!($1 in row)) order[++n] = $1
    if (!runs[$1]) row[$1] = $0   # text columns (plan, kernel set) from the first unskipped run
    k = ++runs[$1]
    for (i = 1; i <= ncols; i++) v[$1, numeric[i], k] = $(numeric[i])
}
function median(name, col, count,    i, j, a, x) {
    for (i = 1; i <= count; i++) a[i] = v[name, col, i]
    for (i = 2; i <= count; i++)   # insertion sort: a handful of runs
        for (j = i; j > 1 && a[j] + 0 < a[j - 1] + 0; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
    if (a[1] == "-") return "-"
    return count % 2 ? a[(count + 1) / 2] : (a[count / 2] + a[count / 2 + 1]) / 2
}
END {
    for (r = 1; r <= n; r++) {
        name = order[r]
        $0 = row[name]
        for (i = 1; runs[name] && i <= ncols; i++) $(numeric[i]) = median(name, numeric[i], runs[name])
        print
    }
}
