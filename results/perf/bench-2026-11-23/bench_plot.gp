set terminal pngcairo size 1400,700
set output '/tmp/w/bench_final/bench.png'
set style fill solid 0.7
set boxwidth 0.4
set ylabel '% of bound'
set title 'kolb kernels vs the same-pattern probe (copy / in-place update) and the STREAM triad (71.9 GB/s)'
set xtics rotate by 60 right font ',8'
set yrange [0:*]
set grid ytics
plot '/tmp/w/bench_final/bench_plot.dat' using ($0-0.2):2:xtic(1) with boxes title 'same-pattern probe', '' using ($0+0.2):3 with boxes title 'triad'
