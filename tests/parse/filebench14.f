# A filebench 1.4 script: its usage lines are taken and ignored, its log
# is echo, vars and help do nothing (tests/warnings/filebench14.f)
set $dir=/tmp
set $nfiles=10
define fileset name=bigfileset,path=$dir,size=4k,entries=$nfiles,dirwidth=20,prealloc=80
define process name=filereader,instances=1
{
  thread name=filereaderthread,memsize=10m,instances=1
  {
    flowop openfile name=openfile1,filesetname=bigfileset,fd=1
    flowop closefile name=closefile1,fd=1
  }
}
echo  "FileServer Version 2.2 personality successfully loaded"
log "loaded with $nfiles files"
usage "Usage: set \$dir=<dir>"
usage "       set \$nfiles=<value>    defaults to $nfiles"
usage "       set \$other=<value>     a variable the script never sets: $other"
usage " "
usage "       run runtime (e.g. run 60)"
