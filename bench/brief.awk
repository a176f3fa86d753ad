# brief.awk - the one-screen summary run.sh prints, from results.awk's TSV (FS is a tab):
# per operator and kernel set, the geometric mean of x memcpy over the run's
# cases and the worst case (element gathers apart: their yardstick is the
# random-loads bound, shown on its own line); then, on the kernel set the
# library picks, each operator's geometric mean and worst case against the
# best copy of the same bytes (x_best_copy). Rows run on more than one thread
# are left to scaling.awk, which run.sh prints after this.
# Usage: awk -f bench/results.awk results.json | awk -f bench/brief.awk
BEGIN {
    FS = "\t"
    nfam = split("join split tile space_to_depth depth_to_space gather_nd", fams, " ")
}
/^#/ { ctx[substr($1, 2)] = $2; next }
$10 != "" || $7 == "" || $7 <= 0 || $14 > 1 { next }
$2 == "bound" { bound = bound sprintf(" %s %.3f;", $4, $7); next }
$2 == "memcpy" || $2 == "overhead" || $2 == "many_pieces" { next }
{
    if (!($5 in has_set)) { has_set[$5] = 1; sets[++nsets] = $5 }
    if ($2 == "gather_nd" && $3 ~ /^elements/) {
        c = $5
        elogsum[c] += log($7); ecount[c]++
        next
    }
    c = $2 "\t" $5
    logsum[c] += log($7); count[c]++
    if (!(c in worst) || $7 < worst[c]) { worst[c] = $7; worst_case[c] = $3 "/" $4 }
    if ($13 > 0) {
        blogsum[c] += log($13); bcount[c]++
        if (!(c in bworst) || $13 < bworst[c]) { bworst[c] = $13; bworst_case[c] = $3 "/" $4 }
    }
}
END {
    printf "tensormove %s on %s, %s\n", ctx["tensormove_version"], ctx["cpu_model"], ctx["date"]
    printf "x memcpy: time of memcpy of the same output bytes / time of the case, timed in alternating slices (1.0 = as fast)\n"
    printf "geometric mean over the run's cases (worst case below it)\n\n"
    printf "%-15s", "operator"
    for (s = 1; s <= nsets; s++) printf " %11s", sets[s]
    printf "\n"
    for (f = 1; f <= nfam; f++) {
        for (s = 1; s <= nsets && !count[fams[f] "\t" sets[s]]; s++) {}
        if (s > nsets) continue   # no case of this operator in the run
        printf "%-15s", fams[f]
        for (s = 1; s <= nsets; s++) {
            c = fams[f] "\t" sets[s]
            printf count[c] ? " %11.2f" : " %11s", count[c] ? exp(logsum[c] / count[c]) : "-"
        }
        printf "\n%-15s", ""
        for (s = 1; s <= nsets; s++) {
            c = fams[f] "\t" sets[s]
            printf " %11s", count[c] ? sprintf("(%.2f)", worst[c]) : ""
        }
        printf "\n"
    }
    best = ("tensormove_default_isa" in ctx) ? ctx["tensormove_default_isa"] : sets[nsets]
    printf "\non %s (the kernel set the library picks here), against the best copy of the same bytes\n", best
    printf "(the faster of memcpy and a streaming copy, measured beside each case), and its worst case:\n"
    printf "  %-15s %12s  %-34s %s\n", "operator", "x best-copy", "worst case", "x best-copy"
    for (f = 1; f <= nfam; f++) {
        c = fams[f] "\t" best
        if (bcount[c])
            printf "  %-15s %12.2f  %-34s %.3f\n", fams[f], exp(blogsum[c] / bcount[c]), bworst_case[c], bworst[c]
    }
    if (ecount[best])
        printf "element gathers on %s: geometric mean %.3f x memcpy; random 4-byte loads (the bound):%s\n",
            best, exp(elogsum[best] / ecount[best]), bound
}
