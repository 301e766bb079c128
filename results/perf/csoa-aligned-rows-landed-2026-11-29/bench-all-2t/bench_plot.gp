set terminal pngcairo size 1400,700
set output 'results/perf/csoa-aligned-rows-landed-2026-11-29/bench-all-2t/bench.png'
set style fill solid 0.7
set boxwidth 0.4
set ylabel '% of bound'
set title 'kolb kernels vs the same-pattern probe (copy / in-place update) and the STREAM triad (23.9 GB/s)'
set xtics rotate by 60 right font ',8'
set yrange [0:*]
set grid ytics
plot 'results/perf/csoa-aligned-rows-landed-2026-11-29/bench-all-2t/bench_plot.dat' using ($0-0.2):2:xtic(1) with boxes title 'same-pattern probe', '' using ($0+0.2):3 with boxes title 'triad'
