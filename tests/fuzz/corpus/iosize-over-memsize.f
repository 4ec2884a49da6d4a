define file name=f,path=/tmp/fbrun-never,size=1m
define process name=p { thread name=t,memsize=64k { flowop read name=r,filesetname=f,iosize=1m } }
