define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t { flowop statfile name=s,filesetname=fs,iosize=8k,random
flowop opslimit name=limit } }
run 1
echo "never printed"
