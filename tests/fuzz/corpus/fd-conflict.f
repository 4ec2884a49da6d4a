define fileset name=a,path=/tmp/fbrun-never,entries=10,dirwidth=5
define fileset name=b,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t {
  flowop openfile name=o,filesetname=a,fd=1
  flowop read name=r,filesetname=b,fd=1,iosize=4k
  flowop closefile name=c,fd=1 } }
