# $( must be closed by ) after the name
set $a=4k
define fileset name=fs,path=/tmp/x,size=$(a,entries=10,dirwidth=5
run 1
