# data= only means something to flowops that write
define fileset name=z,path=/tmp/fbrun-never,entries=4,dirwidth=5,prealloc
define process name=p { thread name=t {
  flowop read name=r,filesetname=z,iosize=4k,data=zeros } }
run 1
