set terminal pngcairo size 1000,650
set output 'docs/tune/h100-d2q9/tune.png'
set datafile separator ','
set key outside bottom center horizontal
set xlabel 'host fraction 2M/LX'
set ylabel 'MLUPS'
set grid
set xrange [0:1]
set title 'D2Q9 double 8192x4096: model M* = 96, measured best M = 0'
set arrow from 0.0234375, graph 0 to 0.0234375, graph 1 nohead dt 3 lc rgb 'gray40'
plot 'docs/tune/h100-d2q9/tune_model.csv' every ::1 using 2:4 with lines lw 2 title 'model (concurrent calibration)', '' every ::1 using 2:3 with lines dt 2 title 'model (isolated calibration)', 'docs/tune/h100-d2q9/tune.csv' every ::1 using ($4==1?$2:1/0):9 with points pt 7 ps 1.2 title 'measured (concurrent)'
