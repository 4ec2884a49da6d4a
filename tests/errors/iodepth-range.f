define file name=f,path=/tmp/fbrun-never,size=64k
define process name=p { thread name=t {
  flowop aioread name=ar,filesetname=f,iosize=4k,iodepth=0 } }
