# plot.awk - results.awk's TSV -> gnuplot data files and script: one PNG per operator, one
# panel per size class, x memcpy on a linear axis with the kernel sets' bars side by side
# (no line hides another, 10% gaps show); one PNG for per-call overhead; one, scaling.png,
# for the rows run on T > 1 threads: per case at L2 and DRAM, the speed-up over one thread
# and x best-copy against the best copy split over the same threads.
# Usage: awk -v dir=TMPDIR -v out=PNGDIR -f plot.awk results.tsv > script.gp
BEGIN { FS = "\t"; nsizes = split("8KiB L1 L2 DRAM", sizes, " ") }
/^#/ { ctx[substr($1, 2)] = $2; next }
$10 != "" || $6 == "" { next }   # skipped runs
$2 == "memcpy" || $2 == "bound" { next }   # the yardsticks: x memcpy is relative to the first
$14 > 1 {
    if ($4 == "L2" || $4 == "DRAM") {
        if (!($14 in t_seen)) { t_seen[$14] = 1; ts[++nt] = $14 }
        c = $2 "/" $3
        if (!(($4, c) in sc_seen)) { sc_seen[$4, c] = 1; sc_cases[$4, ++nsc[$4]] = c }
        sc_up[$4, c, $14] = $15
        sc_best[$4, c, $14] = $13
    }
    next
}
$2 == "overhead" {
    if (!($3 in ov_seen)) { ov_seen[$3] = 1; ov[++nov] = $3 }
    if (!($5 in isa_seen)) { isa_seen[$5] = 1; isas[++ni] = $5 }
    ns[$3, $5] = $8
    next
}
$2 == "many_pieces" { next }   # create and execute times, not a copy: the table has them
{
    fam = $2
    if (!(fam in fam_seen)) { fam_seen[fam] = 1; fams[++nf] = fam }
    if (!($5 in isa_seen)) { isa_seen[$5] = 1; isas[++ni] = $5 }
    if (!((fam, $4, $3) in case_seen)) { case_seen[fam, $4, $3] = 1; cases[fam, $4, ++nc[fam, $4]] = $3 }
    x[fam, $4, $3, $5] = $7
    if (!(top[fam] >= $7)) top[fam] = $7
}
# The gnuplot settings every picture shares: clustered bars, key and tick fonts.
function histogram_style() {
    print "set termoption noenhanced"
    print "set style data histogram"
    print "set style histogram clustered gap 1"
    print "set style fill solid 0.85 border -1"
    print "set grid ytics"
    print "set key outside right top vertical font \",9\""
    print "set xtics rotate by 30 right font \",8\""
}
# A gnuplot string: quotes escaped, and a line break as \n (a raw one ends the command).
function q(s) { gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return "\"" s "\"" }
# scaling.png: per size, a panel of speed-ups and one of x best-copy, a bar per thread count.
function plot_scaling(sub_title,    z, size, data, i, k, c, rows, widest, width) {
    rows = 0
    widest = 1
    for (z = 1; z <= nsizes; ++z) {
        size = sizes[z]
        if (!nsc[size]) continue
        rows += 2
        if (nsc[size] > widest) widest = nsc[size]
        data = dir "/scaling_" size ".dat"
        printf "case" > data
        for (k = 1; k <= nt; ++k) printf " speed-up@%st", ts[k] > data
        for (k = 1; k <= nt; ++k) printf " x-best@%st", ts[k] > data
        printf "\n" > data
        for (i = 1; i <= nsc[size]; ++i) {
            c = sc_cases[size, i]
            printf "%s", c > data
            for (k = 1; k <= nt; ++k) printf " %s", ((size, c, ts[k]) in sc_up) ? sc_up[size, c, ts[k]] : "NaN" > data
            for (k = 1; k <= nt; ++k) printf " %s", ((size, c, ts[k]) in sc_best) ? sc_best[size, c, ts[k]] : "NaN" > data
            printf "\n" > data
        }
        close(data)
    }
    if (!rows) return
    width = 260 + widest * (14 * nt + 20)
    print "reset"
    histogram_style()
    print "set yrange [0:*]"
    printf "set terminal pngcairo noenhanced size %d,%d font \",9\"\n", width < 900 ? 900 : width, rows * 330 + 50
    printf "set output %s\n", q(out "/scaling.png")
    printf "set multiplot layout %d,1 title %s font \",12\"\n", rows,
        q("scaling on the default kernel set: speed-up over one thread, and x the best copy split over the same threads\n" sub_title)
    for (z = 1; z <= nsizes; ++z) {
        size = sizes[z]
        if (!nsc[size]) continue
        data = q(dir "/scaling_" size ".dat")
        printf "set title %s\nset ylabel \"speed-up\"\n", q(size " size: wall time on one thread / on T threads")
        printf "plot for [i=2:%d] %s using i:xtic(1) title columnheader(i)\n", nt + 1, data
        printf "set title %s\nset ylabel \"x best copy\"\n", q(size " size: x the faster of memcpy and a streaming copy, split over the same threads")
        printf "plot for [i=%d:%d] %s using i:xtic(1) title columnheader(i), 1 with lines dt 2 lw 1.5 lc rgb \"black\" title \"best copy\"\n",
            nt + 2, 2 * nt + 1, data
    }
    print "unset multiplot"
}
END {
    sub_title = ctx["cpu_model"] ", tensormove " ctx["tensormove_version"] ", " substr(ctx["date"], 1, 10)
    split("#7f7f7f #1f77b4 #2ca02c #ff7f0e #d62728 #9467bd #8c564b #e377c2", colour, " ")
    print "set datafile separator whitespace"
    histogram_style()
    print "set ylabel \"x memcpy (1.0 = as fast)\""
    for (k = 1; k <= 8; ++k) printf "set linetype %d lc rgb \"%s\"\n", k, colour[k]
    for (f = 1; f <= nf; ++f) {
        fam = fams[f]
        rows = 0
        widest = 1
        for (z = 1; z <= nsizes; ++z) {
            if (!nc[fam, sizes[z]]) continue
            rows++
            if (nc[fam, sizes[z]] > widest) widest = nc[fam, sizes[z]]
            data = dir "/" fam "_" sizes[z] ".dat"
            printf "case" > data
            for (k = 1; k <= ni; ++k) printf " %s", isas[k] > data
            printf "\n" > data
            for (i = 1; i <= nc[fam, sizes[z]]; ++i) {
                c = cases[fam, sizes[z], i]
                printf "%s", c > data
                for (k = 1; k <= ni; ++k) printf " %s", ((fam, sizes[z], c, isas[k]) in x) ? x[fam, sizes[z], c, isas[k]] : "NaN" > data
                printf "\n" > data
            }
            close(data)
        }
        width = 260 + widest * (14 * ni + 20)
        printf "set terminal pngcairo noenhanced size %d,%d font \",9\"\n", width < 900 ? 900 : width, rows * 330 + 50
        printf "set output %s\n", q(out "/" fam ".png")
        printf "set multiplot layout %d,1 title %s font \",12\"\n", rows,
            q(fam ": x memcpy of the same output bytes, per case and kernel set\n" sub_title)
        printf "set yrange [0:%g]\n", (top[fam] > 1.2 ? top[fam] * 1.05 : 1.25)
        for (z = 1; z <= nsizes; ++z) {
            if (!nc[fam, sizes[z]]) continue
            printf "set title %s\n", q(sizes[z] == "8KiB" ? "8 KiB output" : sizes[z] " size")
            printf "plot for [i=2:%d] %s using i:xtic(1) title columnheader(i), 1 with lines dt 2 lw 1.5 lc rgb \"black\" title \"memcpy\"\n",
                ni + 1, q(dir "/" fam "_" sizes[z] ".dat")
        }
        print "unset multiplot"
    }
    if (nov) {
        data = dir "/overhead.dat"
        printf "op" > data
        for (k = 1; k <= ni; ++k) printf " %s", isas[k] > data
        printf "\n" > data
        for (i = 1; i <= nov; ++i) {
            op = ov[i]
            sub(/\/.*/, "", op)
            printf "%s", op > data
            for (k = 1; k <= ni; ++k) printf " %s", ((ov[i], isas[k]) in ns) ? ns[ov[i], isas[k]] : "NaN" > data
            printf "\n" > data
        }
        close(data)
        print "reset"
        print "set terminal pngcairo noenhanced size 1100,450 font \",9\""
        print "set termoption noenhanced"
        printf "set output %s\n", q(out "/overhead.png")
        printf "set title %s\n", q("per-call overhead on tiny tensors, ns per call, log scale (lower is better)  (" sub_title ")")
        print "set style data histogram"
        print "set style histogram clustered gap 1"
        print "set style fill solid 0.8 border -1"
        print "set grid ytics"
        print "set ylabel \"ns per call\""
        print "set key top left"
        print "set xtics noenhanced"
        print "set logscale y"
        print "set yrange [1:*]"
        printf "plot for [i=2:%d] %s using i:xtic(1) title columnheader(i)\n", ni + 1, q(data)
    }
    if (nt) plot_scaling(sub_title)
}
