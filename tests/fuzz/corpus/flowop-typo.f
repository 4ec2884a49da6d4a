# Expected: the misspelled flowop is named with a suggestion, at its own line.
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,prealloc
define process name=p
{
  thread name=t
  {
    flowop openfile name=o,filesetname=fs,fd=1
    flowop raedwholefile name=r,fd=1,iosize=8k
    flowop closefile name=c,fd=1
  }
}
run 5
