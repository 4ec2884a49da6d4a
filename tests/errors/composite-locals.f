# Expected: a local declared twice, given twice, or not declared at all is an error at it.
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define flowop name=cmp, $iosz=4k, $iosz=8k { flowop read name=r,filesetname=fs,iosize=$iosz }
define flowop name=two, $count=1 { flowop statfile name=s,filesetname=fs }
define process name=p { thread name=t {
  flowop cmp name=a, $zzz=3
  flowop cmp name=b, $iosize=16k
  flowop two name=c, $count=2, $count=3
} }
run 1
