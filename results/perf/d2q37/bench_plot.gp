set terminal pngcairo size 1400,700
set output 'docs/perf/d2q37/bench.png'
set style fill solid 0.7
set boxwidth 0.8
set ylabel '% of stream bound'
set title 'kolb kernels vs STREAM triad (67.6 GB/s)'
set xtics rotate by 60 right font ',8'
set yrange [0:*]
set grid ytics
plot 'docs/perf/d2q37/bench_plot.dat' using 0:2:xtic(1) with boxes notitle
