# filebench 1.4 scripts ended a run with shutdown
shutdown processes
