# worst.awk - the worst cases of a sweep or zoo run (results.awk's TSV), against the bars each case must clear:
#   output >= 1 MiB: x best-copy >= 0.8;  smaller outputs: x memcpy >= 0.7;  everywhere: x pieces >= 1
#   (never slower than memcpy of each contiguous piece). A gather's ratio is the larger of that copy
#   ratio and x bound (its line loads, bench/gather_bound.h): from a table beyond the caches no copy
#   rate is reachable, random loads are the limit. Rows without x bound (older runs) rate element
#   gathers (case "elements/...") apart, against the suite's random-loads rows.
# Prints, per operator, the cases, how many miss a bar and the `most` (10) worst by margin
# (ratio / bar), then the worst overall.
# Usage: awk -v most=10 -f bench/worst.awk results.tsv
BEGIN { FS = "\t"; if (!most) most = 10 }
/^#/ || $10 != "" || $14 > 1 { next }
{
    big = $9 >= 1048576
    ratio = big ? $13 : $7
    yardstick = big ? "x best" : "x memcpy"
    bar = big ? 0.8 : 0.7
    bound = ($18 == "-" || $18 == "") ? "" : $18 + 0
    if (bound != "" && bound > ratio) { ratio = bound; yardstick = "x bound" }
    if (bound == "" && $3 ~ /^elements\//) { elements[++ne] = sprintf("%-58s x memcpy %.3f", $2 "/" $3 "/" $4, $7); next }
    margin = ratio / bar
    pieces = ($16 == "-" || $16 == "") ? "" : $16 + 0
    if (pieces != "" && pieces < margin) margin = pieces
    line = sprintf("%-58s %8s %6.3f  x pieces %6s  x loop %6s  %s", $2 "/" $3 "/" $4, yardstick,
        ratio, pieces == "" ? "-" : sprintf("%.3f", pieces), ($17 == "-" || $17 == "") ? "-" : sprintf("%.3f", $17), $11)
    n[$2]++; total++
    if (ratio < bar) { miss_bar[$2]++; misses++ }
    if (pieces != "" && pieces < 1) { miss_pieces[$2]++; slower++ }
    key = sprintf("%012.6f\t%d", margin, NR)
    rows[$2, n[$2]] = key "\t" line
    all[total] = key "\t" line
    if (!($2 in seen)) { seen[$2] = 1; ops[++nops] = $2 }
}
# sorts a[1..count] (keys "margin\tNR\tline") ascending, in place
function sort(a, count,    i, j, x) {
    for (i = 2; i <= count; i++)
        for (j = i; j > 1 && a[j] < a[j - 1]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
}
function show(a, count,    i, f) {
    for (i = 1; i <= count && i <= most; i++) { split(a[i], f, "\t"); print "  " f[3] }
}
END {
    for (o = 1; o <= nops; o++) {
        op = ops[o]
        delete list
        for (i = 1; i <= n[op]; i++) list[i] = rows[op, i]
        sort(list, n[op])
        printf "%s: %d cases, %d below their copy bar, %d slower than memcpy per piece; worst:\n", op, n[op],
            miss_bar[op], miss_pieces[op]
        show(list, n[op])
    }
    sort(all, total)
    printf "\nall operators: %d cases, %d below their copy bar, %d slower than memcpy per piece; the %d worst:\n",
        total, misses, slower, most
    show(all, total)
    if (ne) {
        printf "\nelement gathers (bar: the random-loads bound rows of the suite):\n"
        for (i = 1; i <= ne; i++) print "  " elements[i]
    }
}
