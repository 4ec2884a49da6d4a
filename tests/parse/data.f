# data patterns: on filesets, on write flowops, quoted from a variable
set $pat = "compress=30"
define fileset name=z,path=/tmp/fbrun-never,entries=4,dirwidth=5,prealloc,data=zeros
define fileset name=c,path=/tmp/fbrun-never,entries=4,dirwidth=5,compress=60
define file name=f,path=/tmp/fbrun-never,size=1m,data=bonnie
define process name=p { thread name=t {
  flowop write name=w,filesetname=z,iosize=4k,data=random
  flowop appendfile name=a,filesetname=c,iosize=4k,data=$pat
  flowop writewholefile name=ww,filesetname=f,iosize=64k,compress=0
  flowop aiowrite name=aw,filesetname=c,iosize=4k } }
run 1
