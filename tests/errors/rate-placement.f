# arrivals= and backlog= need rate= on the same entity; one rate= per loop
define fileset name=fs,path=/tmp,entries=10,size=4k,prealloc,dirwidth=10
define flowop name=pair {
  flowop read name=a,filesetname=fs,iosize=4k,rate=3
}
define process name=p,rate=100/job {
  thread name=t1,rate=5 {
    flowop read name=r1,filesetname=fs,iosize=4k
  }
  thread name=t2 {
    flowop read name=r2,filesetname=fs,iosize=4k,rate=7
  }
}
define process name=q,backlog=10 {
  thread name=t3,arrivals=poisson {
    flowop read name=r3,filesetname=fs,iosize=4k,backlog=3
    flowop pair name=c1
  }
  thread name=t4,rate=50 {
    flowop read name=r4,filesetname=fs,iosize=4k,rate=1
  }
}
run 1
