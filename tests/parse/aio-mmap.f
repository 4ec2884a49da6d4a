# aioread, aiowrite with iodepth, mmapread, mmapwrite: fbrun extensions
define file name=f,path=/tmp/fbrun-never,size=64k,prealloc
define process name=p { thread name=t {
  flowop aioread name=ar,filesetname=f,fd=1,iosize=4k,iodepth=16
  flowop aiowrite name=aw,filesetname=f,fd=1,iosize=4k,iodepth=4,random
  flowop aiowait name=wait
  flowop mmapread name=mr,fd=1,iosize=8k,random
  flowop mmapwrite name=mw,fd=1,iosize=8k,data=zeros
  flowop fsync name=sync,fd=1 } }
run 1
