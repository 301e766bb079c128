set terminal pngcairo size 1400,700
set output '/tmp/tmp.bUKl7C4j0G/g/bench_d2q37/bench.png'
set style fill solid 0.7
set boxwidth 0.4
set ylabel '% of bound'
set title 'kolb kernels vs the same-pattern probe (copy / in-place update) and the STREAM triad (4157.3 GB/s)'
set xtics rotate by 60 right font ',8'
set yrange [0:*]
set grid ytics
plot '/tmp/tmp.bUKl7C4j0G/g/bench_d2q37/bench_plot.dat' using ($0-0.2):2:xtic(1) with boxes title 'same-pattern probe', '' using ($0+0.2):3 with boxes title 'triad'
