# $( must be followed by a name
set $a=4k
set $b=$( a )
run 1
