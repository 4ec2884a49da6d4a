define fileset name=bigfileset,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t { flowop openfile name=o,filesetname=bigfilset,fd=1
flowop closefile name=c,fd=1 } }
run 1
