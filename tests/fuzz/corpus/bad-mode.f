set mode quit whenever
