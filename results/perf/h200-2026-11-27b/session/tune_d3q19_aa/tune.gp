set terminal pngcairo size 1000,650
set output '/tmp/tmp.bUKl7C4j0G/g/tune_d3q19_aa/tune.png'
set datafile separator ','
set key outside bottom center horizontal
set xlabel 'host fraction 2M/LX'
set ylabel 'MLUPS'
set grid
set xrange [0:1]
set title 'D3Q19 double 512x128x128: model M* = 0, measured best M = 0'
set arrow from 0, graph 0 to 0, graph 1 nohead dt 3 lc rgb 'gray40'
plot '/tmp/tmp.bUKl7C4j0G/g/tune_d3q19_aa/tune_model.csv' every ::1 using 2:4 with lines lw 2 title 'model (concurrent calibration)', '' every ::1 using 2:3 with lines dt 2 title 'model (isolated calibration)', '' every ::1 using 2:5 with lines dt 4 lw 2 title 'model (refitted in the verification window)', '/tmp/tmp.bUKl7C4j0G/g/tune_d3q19_aa/tune.csv' every ::1 using ($4==1?$2:1/0):11 with points pt 7 ps 1.2 title 'measured (concurrent)'
