# summary.awk - the tables of docs/PERFORMANCE.md from results.awk's TSV (FS is a tab):
# x memcpy per case and x86 kernel set at the L2, DRAM and 8 KiB sizes; the
# geometric mean per operator over its L2 and DRAM cases (GATHER_ND without the
# element gathers, which have a bound of their own: the bound rows); the
# per-call times of the overhead cases. One thread only: scaling.awk -v md=1 gives
# the tables of the rows run on more.
# Usage: awk -f bench/results.awk build/bench/results.json | awk -f bench/summary.awk
BEGIN {
    FS = "\t"
    nsets = split("scalar sse2 avx2 avx512 avx512vbmi", sets, " ")
    nfam = split("join split tile space_to_depth depth_to_space gather_nd", fams, " ")
}
/^#/ || $10 != "" || $6 == "" || $14 > 1 { next }
$2 == "bound" { bound[$4] = $7; next }
$2 == "overhead" {
    if (!($3 in named)) { named[$3] = 1; onames[++no] = $3 }
    over[$3 "\t" $5] = $8
    next
}
$2 == "memcpy" { next }
$4 == "L2" || $4 == "DRAM" || $4 == "8KiB" {
    key = $2 " " $3 "\t" $4
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    x[key "\t" $5] = $7
    if ($4 != "8KiB" && !($2 == "gather_nd" && $3 ~ /^elements/)) {
        logsum[$2 "\t" $5] += log($7)
        count[$2 "\t" $5]++
    }
}
# A table's head: the leading columns, then one per kernel set.
function header(lead, rule,    s) {
    printf "%s", lead
    for (s = 1; s <= nsets; s++) printf " %s |", sets[s]
    printf "\n%s", rule
    for (s = 1; s <= nsets; s++) printf "---|"
    printf "\n"
}

END {
    header("| case | size |", "|---|---|")
    for (i = 1; i <= n; i++) {
        split(order[i], k, "\t")
        printf "| %s | %s |", k[1], k[2]
        for (s = 1; s <= nsets; s++) {
            v = order[i] "\t" sets[s]
            printf (v in x) ? " %.2f |" : " - |", x[v]
        }
        printf "\n"
    }
    printf "\nGeometric mean of x memcpy over the L2 and DRAM cases (GATHER_ND without element gathers):\n\n"
    header("| operator |", "|---|")
    for (f = 1; f <= nfam; f++) {
        printf "| %s |", fams[f]
        for (s = 1; s <= nsets; s++) {
            c = fams[f] "\t" sets[s]
            printf count[c] ? " %.2f |" : " - |", count[c] ? exp(logsum[c] / count[c]) : 0
        }
        printf "\n"
    }
    printf "\nRandom 4-byte loads from precomputed offsets (the bound rows), x memcpy:"
    split("L1 L2 DRAM 8KiB", sizes, " ")
    for (z = 1; z <= 4; z++) if (sizes[z] in bound) printf " %s %.3f;", sizes[z], bound[sizes[z]]
    printf "\n\nPer-call time of the overhead cases (ns per call; scalar / avx512vbmi):"
    for (i = 1; i <= no; i++) printf " %s %.1f / %.1f;", onames[i], over[onames[i] "\tscalar"], over[onames[i] "\tavx512vbmi"]
    printf "\n"
}
