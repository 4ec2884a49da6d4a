# data= means nothing where verify decides what is written
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,verify,data=zeros
define process name=p { thread name=t {
  flowop read name=r,filesetname=fs,iosize=4k } }
