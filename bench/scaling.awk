# scaling.awk - the scaling section, from results.awk's TSV (FS is a tab): the rows run on a
# pool of T > 1 threads (the default kernel set, timed by the wall clock), each beside a
# one-thread wall time of the same op (its speedup counter) and copies of the same output
# bytes split over the same T threads (x memcpy, x best).
#   per case at L2 and DRAM: GB/s on 1 thread (= GB/s on T / speed-up) and on T, speed-up, x memcpy, x best;
#   per operator: geometric mean and worst speed-up at L2, speed-up at DRAM, x best at DRAM (without element
#   gathers, rated against their random-loads bound);
#   per call (tiny and 8 KiB cases): ns per tmv_op_execute and per tmv_op_execute_parallel.
# Usage: awk -f bench/results.awk results.json | awk -f bench/scaling.awk [-v md=1 (Markdown)] [-v brief=1 (operators only)]
BEGIN { FS = "\t" }
/^#/ || $10 != "" || $14 <= 1 || $15 == "-" || $15 <= 0 { next }
$2 == "memcpy" { next }
{
    t = $14
    if (!(t in t_seen)) { t_seen[t] = 1; ts[++nt] = t }
    key = $2 " " $3 "\t" $4
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    gbps[key, t] = $6; xm[key, t] = $7; xb[key, t] = $13; up[key, t] = $15; wall[key, t] = $12
    if ($2 != "overhead" && !($2 in fam_seen)) { fam_seen[$2] = 1; fams[++nf] = $2 }
    per_operator($2, t, $4, $3, $15, $13)
}
function per_operator(fam, t, size, c, speedup, best,    k) {
    k = fam "\t" t
    if (size == "L2") {
        up_log[k] += log(speedup); up_n[k]++
        if (!(k in up_worst) || speedup < up_worst[k]) { up_worst[k] = speedup; up_worst_case[k] = c }
    }
    if (size == "DRAM") { dram_up_log[k] += log(speedup); dram_up_n[k]++ }
    if (size == "DRAM" && !(fam == "gather_nd" && c ~ /^elements/) && best > 0) {
        xb_log[k] += log(best); xb_n[k]++
        if (!(k in xb_worst) || best < xb_worst[k]) { xb_worst[k] = best; xb_worst_case[k] = c }
    }
}
# One row of a table: cells separated by " | " in Markdown, else padded to widths (negative: left-aligned).
function cells(list, widths,    m, i, a, w, line) {
    m = split(list, a, "\t")
    split(widths, w, " ")
    line = md ? "|" : ""
    for (i = 1; i <= m; i++) line = line (md ? " " a[i] " |" : sprintf("%" w[i] "s ", a[i]))
    return line
}
function rule(count,    i, line) {
    line = "|"
    for (i = 1; i <= count; i++) line = line "---|"
    return line
}
function geo(sum, count) { return count ? sprintf("%.2f", exp(sum / count)) : "-" }
function per_case_table(    i, j, k, t, head, widths, line, c) {
    head = "case\tsize"
    widths = "-40 -5"
    for (j = 1; j <= nt; j++) {
        t = ts[j]
        head = head (j == 1 ? "\tGB/s 1t" : "") sprintf("\tGB/s %dt\tspeed-up\tx memcpy %dt\tx best %dt", t, t, t)
        widths = widths (j == 1 ? " 8" : "") " 8 8 12 10"
    }
    print cells(head, widths)
    if (md) print rule(split(head, c, "\t"))
    for (i = 1; i <= n; i++) {
        split(order[i], k, "\t")
        if (k[2] != "L2" && k[2] != "DRAM") continue
        line = order[i]
        for (j = 1; j <= nt; j++) {
            t = ts[j]
            if (!((order[i], t) in up)) { line = line (j == 1 ? "\t-" : "") "\t-\t-\t-\t-"; continue }
            if (j == 1) line = line sprintf("\t%.1f", gbps[order[i], t] / up[order[i], t])
            line = line sprintf("\t%.1f\t%.2f\t%.2f\t%.2f", gbps[order[i], t], up[order[i], t], xm[order[i], t], xb[order[i], t])
        }
        print cells(line, widths)
    }
}
function operator_table(    f, j, k, head, widths) {
    head = "operator\tthreads\tspeed-up L2\tworst case\tworst\tspeed-up DRAM\tx best DRAM\tworst case\tworst"
    widths = "-15 7 11 -32 6 13 11 -32 6"
    print cells(head, widths)
    if (md) print rule(9)
    for (f = 1; f <= nf; f++)
        for (j = 1; j <= nt; j++) {
            k = fams[f] "\t" ts[j]
            if (!up_n[k] && !xb_n[k]) continue
            print cells(sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", fams[f], ts[j], geo(up_log[k], up_n[k]),
                up_n[k] ? up_worst_case[k] : "-", up_n[k] ? sprintf("%.2f", up_worst[k]) : "-",
                geo(dram_up_log[k], dram_up_n[k]), geo(xb_log[k], xb_n[k]), xb_n[k] ? xb_worst_case[k] : "-", xb_n[k] ? sprintf("%.2f", xb_worst[k]) : "-"),
                widths)
        }
}
function per_call_table(    i, j, k, t, widths, serial) {
    widths = "-40 -5 7 12 12 9"
    print cells("case\tsize\tthreads\tns execute\tns parallel\textra ns", widths)
    if (md) print rule(6)
    for (i = 1; i <= n; i++) {
        split(order[i], k, "\t")
        if (k[2] != "tiny" && k[2] != "8KiB") continue
        for (j = 1; j <= nt; j++) {
            t = ts[j]
            if (!((order[i], t) in up)) continue
            serial = wall[order[i], t] * up[order[i], t]   # speed-up = serial / parallel time
            print cells(sprintf("%s\t%s\t%.1f\t%.1f\t%+.1f", order[i], t, serial, wall[order[i], t],
                wall[order[i], t] - serial), widths)
        }
    }
}
END {
    if (!n) exit
    print ""
    print "Scaling: the default kernel set on T threads (tmv_op_execute_parallel on tmv_thread_pool_create(T)),"
    print "wall-clock times; speed-up = wall time of tmv_op_execute on one thread, measured beside the row / the"
    print "row's; x memcpy, x best = the same against memcpy and the faster of memcpy and a streaming copy of"
    print "the output bytes split into T parts on the same pool; geometric means per operator (x best without"
    print "element gathers):"
    print ""
    operator_table()
    print ""
    print "Per call, ns (tmv_op_execute beside tmv_op_execute_parallel on the pool; small outputs run on the"
    print "calling thread):"
    print ""
    per_call_table()
    if (brief) exit
    print ""
    print "Per case, L2 and DRAM sizes:"
    print ""
    per_case_table()
}
