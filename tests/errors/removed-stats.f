# filebench 1.4 ended its runs with stats and shutdown, which 1.5 and
# fbrun do not take
stats snap
