set terminal pngcairo size 1200,600
set output 'results/portability/merged/portability.png'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set ylabel '% of the platform bound'
set yrange [0:110]
set grid ytics
set key top right
set xtics rotate by 30 right
set title 'kolb performance portability (D3Q19 double)'
plot 'results/portability/merged/portability.dat' using 2:xtic(1) title 'epyc-zen5-2c-openmp', '' using 3:xtic(1) title 'h100-cuda (2026-11-22 run, older kolb)', '' using 4:xtic(1) title 'P (Pennycook)'
