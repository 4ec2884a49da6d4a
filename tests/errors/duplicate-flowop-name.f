define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t {
  flowop statfile name=s,filesetname=fs
  flowop deletefile name=s,filesetname=fs } }
