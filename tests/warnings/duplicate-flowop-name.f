# Two flowops of one name in a thread, as in filebench's tpcso.f: a
# warning, and the second is reported as s#2
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t {
  flowop statfile name=s,filesetname=fs
  flowop deletefile name=s,filesetname=fs } }
