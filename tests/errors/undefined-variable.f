set $dir=/tmp/fbrun-never
define fileset name=fs,path=$nodir,entries=10,dirwidth=5
run 1
