define fileset name=fs,path=$dir,entries=10,dirwidth=5
define process name=p { thread name=t { flowop statfile name=s,filesetname=fs } }
run 1
set $dir=/tmp/fbrun-never
