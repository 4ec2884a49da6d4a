define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,dirdepth=abc
define process name=p { thread name=t { flowop statfile name=s,filesetname=fs } }
run 1
