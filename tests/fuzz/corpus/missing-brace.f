# Expected: the error points at 'run' and a note at the unclosed '{'.
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p
{
  thread name=t
  {
    flowop statfile name=s,filesetname=fs
  }
run 5
