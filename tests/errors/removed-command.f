usage "run me with -D"
