# plot.awk - results.awk's TSV -> gnuplot data files and script (one PNG per operator, one for per-call overhead).
# Usage: awk -v dir=TMPDIR -v out=PNGDIR -f plot.awk results.tsv > script.gp
BEGIN { FS = "\t" }
/^#/ { ctx[substr($1, 2)] = $2; next }
$10 != "" || $6 == "" { next }   # skipped runs
function span(v) { if (!(lo <= v)) lo = v; if (!(hi >= v)) hi = v }
$2 == "memcpy" { memcpy[++nm] = $9 " " $6; span($6); next }
$2 == "bound" { next }   # a yardstick row, quoted in PERFORMANCE.md
$2 == "overhead" {
    if (!($3 in ov_seen)) { ov_seen[$3] = 1; ov[++nov] = $3 }
    if (!($5 in isa_seen)) { isa_seen[$5] = 1; isas[++ni] = $5 }
    ns[$3, $5] = $8
    next
}
{
    fam = $2
    if (!(fam in fam_seen)) { fam_seen[fam] = 1; fams[++nf] = fam }
    if (!((fam, $3) in panel_seen)) { panel_seen[fam, $3] = 1; panels[fam, ++np[fam]] = $3 }
    if (!($5 in isa_seen)) { isa_seen[$5] = 1; isas[++ni] = $5 }
    file = dir "/" fam "_" np_of(fam, $3) "_" $5 ".dat"
    print $9, $6 >> file
    span($6)
    close(file)
}
function np_of(fam, c,    i) {
    for (i = 1; i <= np[fam]; ++i) if (panels[fam, i] == c) return i
}
function q(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" }
END {
    for (i = 1; i <= nm; ++i) print memcpy[i] > (dir "/memcpy.dat")
    close(dir "/memcpy.dat")
    sub_title = ctx["cpu_model"] ", tensormove " ctx["tensormove_version"] ", " substr(ctx["date"], 1, 10)
    print "set datafile separator whitespace"
    print "set termoption noenhanced"
    print "set grid"
    print "set logscale xy"
    print "set xrange [8192:134217728]"
    print "set xtics (\"16K\" 16384, \"512K\" 524288, \"64M\" 67108864)"
    print "set format y \"%g\""
    # one y range for every panel, whole decades, so panels compare at a glance
    printf "set yrange [%g:%g]\n", 10 ^ int(log(lo) / log(10) - (lo < 1)), 10 ^ int(log(hi) / log(10) + 1)
    # a fixed colour per kernel set, in ascending order
    split("#7f7f7f #1f77b4 #2ca02c #ff7f0e #d62728 #9467bd #8c564b #e377c2", colour, " ")
    for (k = 1; k <= 8; ++k) printf "set linetype %d lc rgb \"%s\"\n", k, colour[k]
    print "set xlabel \"output bytes\" offset 0,0.5"
    print "set ylabel \"GB/s (read + written)\" offset 1.5,0"
    for (f = 1; f <= nf; ++f) {
        fam = fams[f]
        n = np[fam]
        cols = n < 4 ? n : 4
        rows = int((n + cols - 1) / cols)
        printf "set terminal pngcairo noenhanced size %d,%d font \",9\"\n", cols * 440, rows * 330 + 40
        printf "set output %s\n", q(out "/" fam ".png")
        printf "set multiplot layout %d,%d title %s font \",12\"\n", rows, cols,
            q(fam ": throughput against output size, one line per kernel set; dashed = memcpy  (" sub_title ")")
        for (p = 1; p <= n; ++p) {
            printf "set title %s\n", q(panels[fam, p])
            print(p == 1 ? "set key top right font \",8\" samplen 2" : "unset key")
            line = "plot"
            sep = " "
            for (k = 1; k <= ni; ++k) {
                file = dir "/" fam "_" p "_" isas[k] ".dat"
                if (system("test -s " q(file)) != 0) continue
                line = line sep q(file) " using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb \"" colour[(k - 1) % 8 + 1] "\" title " q(isas[k])
                sep = ", "
            }
            if (nm) line = line sep q(dir "/memcpy.dat") " using 1:2 with lines dt 2 lw 2 lc rgb \"black\" title \"memcpy\""
            print line
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
}
